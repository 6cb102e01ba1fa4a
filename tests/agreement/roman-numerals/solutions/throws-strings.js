export class InvalidNumeralError extends Error {}

const VALUES = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [1, 'I']];

export function toRoman(n) {
  if (n < 1 || n > 3999) throw `${n} must be between 1 and 3999`;
  if (!Number.isInteger(n)) throw `${n} must be an integer`;
  return VALUES.reduce((acc, [v, l]) => {
    while (n >= v) { acc += l; n -= v; }
    return acc;
  }, '');
}

export function fromRoman(s) {
  const map = Object.fromEntries(VALUES.filter(([, l]) => l.length === 1).map(([v, l]) => [l, v]));
  return [...s].reduce((acc, ch, i) => {
    if (!(ch in map)) throw new InvalidNumeralError(`${s} is not a roman numeral`);
    return acc + (map[s[i + 1]] > map[ch] ? -map[ch] : map[ch]);
  }, 0);
}
