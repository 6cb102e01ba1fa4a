import { describe, expect, test } from '@jest/globals';
import { convert, type Scale } from './temperature';

describe('convert', () => {
  test.each<[number, Scale, Scale, number]>([
    [0, 'C', 'F', 32],
    [100, 'C', 'F', 212],
    [32, 'F', 'C', 0],
    [0, 'C', 'K', 273.15],
    [300, 'K', 'C', 26.85],
    [212, 'F', 'K', 373.15],
  ])('%p %s -> %s is %p', (value, from, to, expected) => {
    expect(convert(value, from, to)).toBeCloseTo(expected, 2);
  });
  test('same scale returns the value', () => {
    expect(convert(21.5, 'C', 'C')).toBe(21.5);
  });
  describe('edge cases', () => {
    test('absolute zero is allowed', () => {
      expect(convert(0, 'K', 'C')).toBeCloseTo(-273.15, 2);
    });
    test('below absolute zero throws a RangeError', () => {
      expect(() => convert(-1, 'K', 'C')).toThrow(RangeError);
      expect(() => convert(-300, 'C', 'F')).toThrow(RangeError);
    });
    test('rounds to two decimals', () => {
      expect(convert(1, 'F', 'C')).toBe(-17.22);
    });
  });
});
