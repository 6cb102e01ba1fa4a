export const isLeap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

export function leapYearsBetween(start, end) {
  if (start > end) throw new RangeError('start must not be after end');
  const years = [];
  for (let y = start; y <= end; y += 1) if (isLeap(y)) years.push(y);
  return years;
}
