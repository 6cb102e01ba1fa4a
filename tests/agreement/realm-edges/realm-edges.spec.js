import { parse, fail, failLater, firstDigits } from './realm-edges';

describe('values made on both sides of the realm boundary', () => {
  test('strict equal to an Error the test made', () => {
    expect(() => fail('x')).toThrow(Error);
    let caught;
    try { fail('x'); } catch (e) { caught = e; }
    expect(caught).toStrictEqual(new Error('x'));
  });
  test('constructor is Error', () => {
    let caught;
    try { fail('y'); } catch (e) { caught = e; }
    expect(caught.constructor).toBe(Error);
  });
  test('rejects strict equal', async () => {
    await expect(failLater('z')).rejects.toStrictEqual(new Error('z'));
  });
  test('parsed object strict equal', () => {
    expect(parse('a=1;b=2')).toStrictEqual({ a: '1', b: '2' });
  });
  test('legacy RegExp statics', () => {
    expect(firstDigits('ab12cd')).toBe('12');
  });
});
