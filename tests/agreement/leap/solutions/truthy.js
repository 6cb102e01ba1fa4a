const cache = [];
export const isLeap = (year) => (year % 400 === 0 || (year % 4 === 0 && year % 100 !== 0)) && 1;

export const leapYearsBetween = (start, end) => {
  if (start > end) {
    throw new RangeError('start must not be after end');
  }
  for (let y = start; y <= end; y++) if (isLeap(y)) cache.push(y);
  return cache;
};
