import { List } from './list-ops';

describe('append entries to a list and return the new list', () => {
  test('empty lists', () => {
    expect(new List().append(new List())).toEqual(new List());
  });
  test('non-empty lists', () => {
    const list1 = new List([1, 2]);
    const list2 = new List([2, 3, 4, 5]);
    expect(list1.append(list2).values).toEqual([1, 2, 2, 3, 4, 5]);
  });
  test('does not change its arguments', () => {
    const list1 = new List([1]);
    const list2 = new List([2]);
    list1.append(list2);
    expect([list1.values, list2.values]).toEqual([[1], [2]]);
  });
});

describe('filter list returning only values that satisfy the filter function', () => {
  test('non-empty list', () => {
    const list = new List([1, 2, 3, 5]);
    expect(list.filter((el) => el % 2 === 1).values).toEqual([1, 3, 5]);
  });
  test('calls the predicate once per element, in order', () => {
    const pred = jest.fn((x) => x > 1);
    new List([3, 1, 2]).filter(pred);
    expect(pred.mock.calls.map((c) => c[0])).toEqual([3, 1, 2]);
    expect(pred).toHaveBeenCalledTimes(3);
  });
});

describe('returns the length of a list', () => {
  test.each([
    [[], 0],
    [[1, 2, 3, 4], 4],
  ])('length of %j is %i', (values, n) => {
    expect(new List(values).length()).toBe(n);
  });
});

describe('folds (reduces) the given list from the left with a function', () => {
  test('direction independent function applied to non-empty list', () => {
    expect(new List([1, 2, 3, 4]).foldl((acc, el) => el + acc, 5)).toEqual(15);
  });
  test('direction dependent function applied to non-empty list', () => {
    expect(new List([1, 2, 3, 4]).foldl((acc, el) => el / acc, 24)).toBeCloseTo(64);
  });
});

describe('folds (reduces) the given list from the right with a function', () => {
  test('direction dependent function applied to non-empty list', () => {
    expect(new List([1, 2, 3, 4]).foldr((acc, el) => el / acc, 24)).toBeCloseTo(9);
  });
  test('the callback sees elements last to first', () => {
    const seen = [];
    new List(['a', 'b', 'c']).foldr((acc, el) => { seen.push(el); return acc; }, null);
    expect(seen).toEqual(['c', 'b', 'a']);
  });
});

describe('reverse the elements of a list', () => {
  test('list of lists is not flattened', () => {
    const list = new List([[1, 2], [3], [], [4, 5, 6]]);
    expect(list.reverse().values).toEqual([[4, 5, 6], [], [3], [1, 2]]);
  });
  test('returns a List', () => {
    expect(new List([1]).reverse()).toBeInstanceOf(List);
  });
  test.todo('reverse in place');
});
