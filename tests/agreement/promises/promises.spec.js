import { promisify, all, allSettled, race, any } from './promises';

describe('promises', () => {
  const success = (value, cb) => cb(null, value);
  const failure = (value, cb) => cb(new Error(`${value} failed`));

  describe('promisify', () => {
    test('returns a function', () => {
      expect(typeof promisify(success)).toBe('function');
    });
    test('promisified function resolves to a callback value', () => {
      return expect(promisify(success)('ok')).resolves.toBe('ok');
    });
    test('promisified function rejects a callback error', () => {
      return expect(promisify(failure)('x')).rejects.toEqual(new Error('x failed'));
    });
    test('passes every argument through', async () => {
      const fn = jest.fn((a, b, cb) => cb(null, a + b));
      await expect(promisify(fn)(2, 3)).resolves.toBe(5);
      expect(fn).toHaveBeenCalledWith(2, 3, expect.any(Function));
    });
  });

  describe('all', () => {
    const delayed = (ms, v) => new Promise((resolve) => setTimeout(() => resolve(v), ms));
    test('resolves when given no promises', () => {
      return expect(all([])).resolves.toEqual([]);
    });
    test('resolves values in the order of the promises, not of settling', async () => {
      await expect(all([delayed(20, 'slow'), delayed(1, 'fast')])).resolves.toStrictEqual(['slow', 'fast']);
    });
    test('rejects with the first rejection', async () => {
      await expect(all([delayed(5, 1), Promise.reject(new TypeError('bad'))])).rejects.toThrow(TypeError);
    });
    test('does not change the array it is given', async () => {
      const input = [delayed(1, 1), 2];
      await all(input);
      expect(input).toHaveLength(2);
      expect(input[1]).toBe(2);
    });
  });

  describe('allSettled', () => {
    test('reports every outcome', async () => {
      const result = await allSettled([Promise.resolve(1), Promise.reject(new Error('no'))]);
      expect(result).toEqual([
        { status: 'fulfilled', value: 1 },
        { status: 'rejected', reason: new Error('no') },
      ]);
    });
    test('outcome objects have exactly their keys', async () => {
      const [settled] = await allSettled([Promise.resolve('a')]);
      expect(settled).toStrictEqual({ status: 'fulfilled', value: 'a' });
    });
  });

  describe('race', () => {
    test('resolves with the first to settle', async () => {
      const slow = new Promise((r) => setTimeout(() => r('slow'), 30));
      await expect(race([slow, Promise.resolve('fast')])).resolves.toBe('fast');
    });
    test('calls back with done', (done) => {
      race([Promise.resolve(7)]).then((v) => {
        expect(v).toBe(7);
        done();
      });
    });
  });

  describe('any', () => {
    test('resolves with the first fulfilment', async () => {
      await expect(any([Promise.reject(new Error('a')), Promise.resolve('b')])).resolves.toBe('b');
    });
    test('rejects with every reason when all reject', async () => {
      await expect(any([Promise.reject(new Error('a')), Promise.reject(new Error('b'))])).rejects.toMatchObject({
        errors: [new Error('a'), new Error('b')],
      });
    });
    test.todo('any with non-promise values');
  });
});
