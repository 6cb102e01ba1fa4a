// Jest-style, as in exercism's javascript track (ESM, extensionless import).
import { describe, expect, test, xtest } from '@jest/globals';
import { isLeap } from './leap';

describe('A leap year', () => {
  test('year not divisible by 4 in common year', () => {
    expect(isLeap(2015)).toBe(false);
  });
  test('year divisible by 2, not divisible by 4 in common year', () => {
    expect(isLeap(1970)).toBe(false);
  });
  test('year divisible by 4, not divisible by 100 in leap year', () => {
    expect(isLeap(1996)).toBe(true);
  });
  test('year divisible by 100, not divisible by 400 in common year', () => {
    expect(isLeap(2100)).toBe(false);
  });
  test('year divisible by 400 is leap year', () => {
    expect(isLeap(2000)).toBe(true);
  });
  test.each([
    [1800, false],
    [2400, true],
    [2024, true],
  ])('isLeap(%i) is %p', (year, expected) => {
    expect(isLeap(year)).toBe(expected);
  });
  describe('edge cases', () => {
    test('year 0 is a leap year', () => {
      expect(isLeap(0)).toBe(true);
    });
    test('negative years follow the same rule', () => {
      expect(isLeap(-4)).toBe(true);
      expect(isLeap(-100)).toBe(false);
    });
    test('very large years', () => {
      expect(isLeap(400_000_000)).toBe(true);
    });
  });
});
