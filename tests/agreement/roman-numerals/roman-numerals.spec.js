import { toRoman, fromRoman, InvalidNumeralError } from './roman-numerals';

describe('toRoman()', () => {
  test.each`
    arabic  | roman
    ${1}    | ${'I'}
    ${4}    | ${'IV'}
    ${9}    | ${'IX'}
    ${27}   | ${'XXVII'}
    ${48}   | ${'XLVIII'}
    ${59}   | ${'LIX'}
    ${93}   | ${'XCIII'}
    ${402}  | ${'CDII'}
    ${1024} | ${'MXXIV'}
    ${3999} | ${'MMMCMXCIX'}
  `('$arabic is $roman', ({ arabic, roman }) => {
    expect(toRoman(arabic)).toEqual(roman);
  });

  describe('out of range', () => {
    test('zero has no numeral', () => {
      expect(() => toRoman(0)).toThrow(RangeError);
    });
    test('the message names the range', () => {
      expect(() => toRoman(4000)).toThrow('must be between 1 and 3999');
    });
    test('a fraction is not a number we can write', () => {
      expect(() => toRoman(1.5)).toThrow(new RangeError('1.5 must be an integer'));
    });
  });
});

describe('fromRoman()', () => {
  test('reads subtractive pairs', () => {
    expect(fromRoman('MCMXCIV')).toBe(1994);
  });
  test('round trips', () => {
    for (let n = 1; n < 200; n += 7) expect(fromRoman(toRoman(n))).toBe(n);
  });
  test('rejects letters that are not numerals', () => {
    expect(() => fromRoman('MXQ')).toThrow(InvalidNumeralError);
  });
  test('the error carries the offending numeral', () => {
    let caught;
    try {
      fromRoman('ABC');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({ name: 'InvalidNumeralError', numeral: 'ABC' });
    expect(caught.message).toMatch(/ABC/);
  });
  test('the error equals one made by the test', () => {
    expect(() => fromRoman('Z')).toThrow(new InvalidNumeralError('Z'));
  });
  test('a caught error equals a plain Error with its message', () => {
    try {
      fromRoman('Z');
    } catch (e) {
      expect(e).toEqual(new Error('Z is not a roman numeral'));
    }
    expect.assertions(1);
  });
});
