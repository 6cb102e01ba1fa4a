// Partially correct: knows "divisible by 4" but not the century rules.
export function isLeap(year) {
  return year % 4 === 0;
}
