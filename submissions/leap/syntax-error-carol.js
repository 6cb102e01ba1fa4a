// Syntax error: a missing closing parenthesis.
export function isLeap(year {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
