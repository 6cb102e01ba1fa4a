import { summarize, normalize, alerts } from './weather-stats';

// Custom matchers, used as Jest allows: directly, and as asymmetric matchers inside other matchers.
expect.extend({
  toBeWithinRange(received, floor, ceiling) {
    const pass = typeof received === 'number' && received >= floor && received <= ceiling;
    return {
      pass,
      message: () => `expected ${this.utils.printReceived(received)}${pass ? ' not' : ''} to be within range ${floor} - ${ceiling}`,
    };
  },
  toBeRounded(received, digits) {
    const pass = typeof received === 'number' && Number(received.toFixed(digits)) === received;
    return { pass, message: () => `expected ${received}${pass ? ' not' : ''} to be rounded to ${digits} digits` };
  },
});

const READINGS = [12.5, 18, 9.25, 21.75, 15, 14];

describe('summarize', () => {
  test('min and max are readings', () => {
    const s = summarize(READINGS);
    expect(s.min).toBe(9.25);
    expect(s.max).toBe(21.75);
  });
  test('the mean is within the readings and rounded', () => {
    expect(summarize(READINGS)).toEqual({
      min: 9.25,
      max: 21.75,
      mean: expect.toBeWithinRange(15.08, 15.09),
      count: 6,
    });
    expect(summarize(READINGS).mean).toBeRounded(2);
  });
  test('objectContaining with custom matchers', () => {
    expect(summarize([1, 2, 4])).toEqual(expect.objectContaining({ mean: expect.toBeRounded(2), count: expect.toBeWithinRange(3, 3) }));
  });
  test('a single reading', () => {
    expect(summarize([7])).toEqual({ min: 7, max: 7, mean: expect.toBeWithinRange(7, 7), count: 1 });
  });
  test('the mean is not an extreme', () => {
    expect(summarize(READINGS).mean).toEqual(expect.not.toBeWithinRange(21, 22));
    expect(summarize(READINGS)).not.toEqual(expect.objectContaining({ mean: expect.toBeWithinRange(0, 9) }));
  });
});

describe('normalize', () => {
  test('every value is a fraction', () => {
    expect(normalize(READINGS)).toEqual(expect.arrayContaining([0, 1]));
    for (const v of normalize(READINGS)) expect(v).toBeWithinRange(0, 1);
  });
  test('values in order', () => {
    expect(normalize([10, 15, 20])).toStrictEqual([0, expect.toBeWithinRange(0.49, 0.51), 1]);
  });
  test('no value outside the unit interval', () => {
    expect(normalize(READINGS)).toEqual(expect.not.arrayContaining([expect.not.toBeWithinRange(0, 1)]));
  });
  test('rounded to three digits', () => {
    expect(normalize([0, 1, 2, 3, 4, 5, 6])).toEqual(Array(7).fill(expect.toBeRounded(3)));
  });
});

describe('alerts', () => {
  test('calls back for each reading above the limit, with its index', () => {
    const cb = jest.fn();
    alerts(READINGS, 17, cb);
    expect(cb).toHaveBeenCalledTimes(2);
    expect(cb).toHaveBeenCalledWith(expect.toBeWithinRange(17, 19), { index: 1 });
    expect(cb).toHaveBeenLastCalledWith(21.75, expect.objectContaining({ index: expect.toBeWithinRange(3, 3) }));
  });
  test('never for a reading at the limit', () => {
    const cb = jest.fn();
    alerts([17, 16], 17, cb);
    expect(cb).not.toHaveBeenCalledWith(expect.toBeWithinRange(16, 17), expect.anything());
  });
  test('returns the readings it reported', () => {
    const report = jest.fn(alerts);
    report(READINGS, 20, () => {});
    expect(report).toHaveReturnedWith([expect.toBeWithinRange(21, 22)]);
  });
});
