import { retry, sleepThen } from './retry';

describe('retry', () => {
  test('resolves with the first success', async () => {
    const op = jest.fn().mockRejectedValueOnce(new Error('flaky')).mockResolvedValue('ok');
    await expect(retry(op, 3)).resolves.toBe('ok');
    expect(op).toHaveBeenCalledTimes(2);
  });
  test('rejects with the last error once attempts run out', async () => {
    const op = jest.fn().mockRejectedValue(new TypeError('down'));
    await expect(retry(op, 2)).rejects.toThrow(TypeError);
    expect(op).toHaveBeenCalledTimes(2);
  });
  test('passes the attempt number', async () => {
    const seen = [];
    await retry(async (n) => { seen.push(n); if (n < 3) throw new Error('again'); return n; }, 5);
    expect(seen).toEqual([1, 2, 3]);
  });
  test('never calls the operation when attempts is zero', async () => {
    const op = jest.fn();
    await expect(retry(op, 0)).rejects.toThrow('no attempts');
    expect(op).not.toHaveBeenCalled();
  });
  test('done callback style', (done) => {
    sleepThen(5, (v) => {
      expect(v).toBe(5);
      done();
    });
  });
  test('a slow operation fails its timeout', async () => {
    await retry(() => new Promise((r) => setTimeout(() => r('late'), 2000)), 1);
  }, 200);
});
