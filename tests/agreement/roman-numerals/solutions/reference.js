const VALUES = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

export class InvalidNumeralError extends Error {
  constructor(numeral) {
    super(`${numeral} is not a roman numeral`);
    this.name = 'InvalidNumeralError';
    this.numeral = numeral;
  }
}

export const toRoman = (n) => {
  if (!Number.isInteger(n)) throw new RangeError(`${n} must be an integer`);
  if (n < 1 || n > 3999) throw new RangeError(`${n} must be between 1 and 3999`);
  let out = '';
  for (const [value, letters] of VALUES) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
};

export const fromRoman = (text) => {
  if (!/^[MDCLXVI]+$/.test(text)) throw new InvalidNumeralError(text);
  let total = 0;
  let rest = text;
  for (const [value, letters] of VALUES) {
    while (rest.startsWith(letters)) {
      total += value;
      rest = rest.slice(letters.length);
    }
  }
  return total;
};
