import { say } from './say';

describe('say', () => {
  test('zero', () => {
    expect(say(0)).toEqual('zero');
  });
  test('one', () => {
    expect(say(1)).toEqual('one');
  });
  test('fourteen', () => {
    expect(say(14)).toEqual('fourteen');
  });
  test('twenty', () => {
    expect(say(20)).toEqual('twenty');
  });
  test('twenty-two', () => {
    expect(say(22)).toEqual('twenty-two');
  });
  test('one hundred', () => {
    expect(say(100)).toEqual('one hundred');
  });
  test('one hundred twenty-three', () => {
    expect(say(123)).toEqual('one hundred twenty-three');
  });
  test('one thousand', () => {
    expect(say(1000)).toEqual('one thousand');
  });
  test('one thousand two hundred thirty-four', () => {
    expect(say(1234)).toEqual('one thousand two hundred thirty-four');
  });
  test('one million two thousand three hundred forty-five', () => {
    expect(say(1002345)).toEqual('one million two thousand three hundred forty-five');
  });
  test('a big number', () => {
    expect(say(987654321123)).toEqual(
      'nine hundred eighty-seven billion six hundred fifty-four million three hundred twenty-one thousand one hundred twenty-three',
    );
  });
  describe('out of range', () => {
    test('numbers below zero', () => {
      expect(() => say(-1)).toThrow(new Error('Number must be between 0 and 999,999,999,999.'));
    });
    test('numbers above 999,999,999,999', () => {
      expect(() => say(1000000000000)).toThrow(RangeError);
    });
  });
});
