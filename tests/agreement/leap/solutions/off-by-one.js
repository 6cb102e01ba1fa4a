export function isLeap(year) {
  return year % 4 === 0;
}

export function leapYearsBetween(start, end) {
  if (start > end) throw new Error('start must not be after end');
  const years = [];
  for (let y = start; y < end; y++) if (isLeap(y)) years.push(y);
  return years;
}
