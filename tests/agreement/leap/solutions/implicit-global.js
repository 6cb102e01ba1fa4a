function isLeap(year) {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function leapYearsBetween(start, end) {
  if (start > end) throw new RangeError('start must not be after end');
  years = [];
  for (y = start; y <= end; y++) {
    if (isLeap(y)) years.push(y);
  }
  return years;
}

module.exports = { isLeap, leapYearsBetween };
