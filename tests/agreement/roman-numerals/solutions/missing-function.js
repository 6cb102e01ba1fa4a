export class InvalidNumeralError extends TypeError {
  constructor(numeral) {
    super(`${numeral} is not a roman numeral`);
    this.name = 'InvalidNumeralError';
    this.numeral = numeral;
  }
}

const digit = (d, one, five, ten) => ['', one, one + one, one + one + one, one + five, five, five + one, five + one + one, five + one + one + one, one + ten][d];

export const toRoman = (n) => {
  const s = n >= 1 && n <= 3999 ? String(n).padStart(4, '0') : null;
  const [m, c, x, i] = s.split('').map(Number);
  return 'M'.repeat(m) + digit(c, 'C', 'D', 'M') + digit(x, 'X', 'L', 'C') + digit(i, 'I', 'V', 'X');
};
