// Jest style, CommonJS, with Jest's globals (describe/test/expect/beforeEach).
const { sumMatrix, rowSums, columnSums } = require('./matrix');

describe('matrix sums', () => {
  let grid;
  beforeEach(() => {
    grid = [
      [1, 2, 3],
      [4, 5, 6],
    ];
  });

  test('sums every element', () => {
    expect(sumMatrix(grid)).toBe(21);
  });

  test.each([
    [[[7]], 7],
    [[[1, -1], [2, -2]], 0],
    [[[10, 20], [30, 40], [50, 60]], 210],
  ])('sumMatrix(%j) is %i', (m, expected) => {
    expect(sumMatrix(m)).toBe(expected);
  });

  test('row sums', () => {
    expect(rowSums(grid)).toEqual([6, 15]);
  });

  test('column sums', () => {
    expect(columnSums(grid)).toEqual([5, 7, 9]);
  });

  test('works when awaited inside an async test', async () => {
    const total = await Promise.resolve(grid).then(sumMatrix);
    expect(total).toBe(21);
    await expect(Promise.resolve().then(() => sumMatrix('nope'))).rejects.toThrow(TypeError);
  });

  describe('edge cases', () => {
    test('an empty matrix sums to 0 and has no rows or columns', () => {
      expect(sumMatrix([])).toBe(0);
      expect(rowSums([])).toEqual([]);
      expect(columnSums([])).toEqual([]);
    });

    test('empty rows sum to 0', () => {
      expect(sumMatrix([[], []])).toBe(0);
      expect(rowSums([[], []])).toEqual([0, 0]);
    });

    test('negative and fractional values', () => {
      expect(sumMatrix([[0.1, 0.2], [-0.3, 1.5]])).toBeCloseTo(1.5);
    });

    test('rejects input that is not a matrix of numbers', () => {
      expect(() => sumMatrix(null)).toThrow(TypeError);
      expect(() => sumMatrix([1, 2, 3])).toThrow(TypeError);
      expect(() => sumMatrix([[1, '2']])).toThrow(TypeError);
      expect(() => sumMatrix([[1, NaN]])).toThrow(TypeError);
    });

    test('columnSums rejects a ragged matrix', () => {
      expect(() => columnSums([[1, 2], [3]])).toThrow(RangeError);
    });

    test('does not modify its input', () => {
      const copy = JSON.parse(JSON.stringify(grid));
      sumMatrix(grid);
      rowSums(grid);
      columnSums(grid);
      expect(grid).toEqual(copy);
    });
  });
});
