import { gigasecond } from './gigasecond';

describe('Gigasecond', () => {
  test('date only specification of time', () => {
    const gs = gigasecond(new Date(Date.parse('2011-04-25')));
    expect(gs).toEqual(new Date(Date.parse('2043-01-01T01:46:40Z')));
  });
  test('full time specified', () => {
    const gs = gigasecond(new Date(Date.parse('2015-01-24T22:00:00Z')));
    expect(gs).toEqual(new Date(Date.parse('2046-10-02T23:46:40Z')));
  });
  test('does not mutate the input', () => {
    const input = new Date(Date.parse('2015-01-24T23:59:59Z'));
    gigasecond(input);
    expect(input.toISOString()).toBe('2015-01-24T23:59:59.000Z');
  });
  test('returns a Date', () => {
    expect(gigasecond(new Date(0))).toBeInstanceOf(Date);
  });
});
