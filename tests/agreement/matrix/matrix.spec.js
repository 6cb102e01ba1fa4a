import { Matrix } from './matrix';

describe('Matrix', () => {
  test('extract row from one number matrix', () => {
    expect(new Matrix('1').rows[0]).toEqual([1]);
  });
  test('can extract row', () => {
    expect(new Matrix('1 2\n3 4').rows[1]).toEqual([3, 4]);
  });
  test('extract row where numbers have different widths', () => {
    expect(new Matrix('1 2\n10 20').rows[1]).toEqual([10, 20]);
  });
  test('can extract column', () => {
    expect(new Matrix('1 2 3\n4 5 6\n7 8 9').columns[2]).toEqual([3, 6, 9]);
  });
  test('can extract column from non-square matrix with more columns than rows', () => {
    expect(new Matrix('1 2 3\n4 5 6').columns[2]).toEqual([3, 6]);
  });
  test.each([
    ['89 1903 3\n18 3 1\n9 4 800', 1, [1903, 3, 4]],
    ['1 2\n3 4\n5 6', 0, [1, 3, 5]],
  ])('column of %s at %i', (text, i, col) => {
    expect(new Matrix(text).columns[i]).toStrictEqual(col);
  });
  test('rows are plain arrays of numbers', () => {
    expect(new Matrix('1 2\n3 4')).toMatchObject({ rows: [[1, 2], [3, 4]] });
  });
  test('does not share rows between reads', () => {
    const m = new Matrix('1 2\n3 4');
    m.rows[0].push(99);
    expect(m.rows[0]).toHaveLength(2);
  });
});
