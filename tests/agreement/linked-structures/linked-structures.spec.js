import { Node, Ring, Account, Bag, range, ID, tagged, point, graph, Temperature } from './linked-structures';

describe('nodes exposing value and next through getters', () => {
  test('a node reads its value', () => {
    expect(new Node(1).value).toBe(1);
  });
  test('next is the node it was given', () => {
    const a = new Node(1);
    expect(new Node(2, a).next).toBe(a);
  });
  test('two chains built alike are equal', () => {
    expect(new Node(2, new Node(1))).toEqual(new Node(2, new Node(1)));
  });
  test('chains with different values are not equal', () => {
    expect(new Node(2, new Node(1))).not.toEqual(new Node(2, new Node(3)));
  });
  test('a path through the getters', () => {
    expect(new Node(1, new Node(2, new Node(3)))).toHaveProperty('next.next.value', 3);
  });
  test('matches an object shape', () => {
    expect(new Node(1, new Node(2))).toMatchObject({ value: 1, next: { value: 2 } });
  });
  test('strictly equal to a chain of the same class', () => {
    expect(new Node(5)).toStrictEqual(new Node(5));
  });
});

describe('a ring whose last node leads back to the first', () => {
  test('three steps come back to the head', () => {
    const ring = Ring.of(1, 2, 3);
    expect(ring.head.next.next.next).toBe(ring.head);
  });
  test('lists its values once', () => {
    expect(Ring.of(1, 2, 3).toArray()).toEqual([1, 2, 3]);
  });
  test('two rings built alike are equal, cycle and all', () => {
    expect(Ring.of(1, 2, 3)).toEqual(Ring.of(1, 2, 3));
  });
  test('rings of different values are not equal', () => {
    expect(Ring.of(1, 2, 3)).not.toEqual(Ring.of(1, 2, 4));
  });
  test('rotating moves the head', () => {
    expect(Ring.of(1, 2, 3).rotate().toArray()).toEqual([2, 3, 1]);
  });
});

describe('a class with private fields', () => {
  test('deposits add up', () => {
    const a = new Account(10);
    a.deposit(5);
    expect(a.balance).toBe(15);
  });
  test('overdrawing throws', () => {
    expect(() => new Account(1).withdraw(2)).toThrow(RangeError);
  });
  test('balance read by toMatchObject', () => {
    expect(new Account(7)).toMatchObject({ balance: 7 });
  });
  test('is an Account', () => {
    expect(new Account(0)).toBeInstanceOf(Account);
  });
});

describe('iterators and generators', () => {
  test('range spreads', () => {
    expect([...range(1, 4)]).toEqual([1, 2, 3]);
  });
  test('an empty range', () => {
    expect(Array.from(range(3, 3))).toEqual([]);
  });
  test('a bag iterates its items', () => {
    expect([...new Bag(['a', 'b'])]).toEqual(['a', 'b']);
  });
  test('two bags of the same items are equal', () => {
    expect(new Bag([1, 2])).toEqual(new Bag([1, 2]));
  });
  test('a bag contains an item', () => {
    expect(new Bag([{ n: 1 }, { n: 2 }])).toContainEqual({ n: 2 });
  });
});

describe('symbol-keyed properties', () => {
  test('a tag under a symbol', () => {
    expect(tagged('x', 7)).toEqual({ name: 'x', [ID]: 7 });
  });
  test('a different tag differs', () => {
    expect(tagged('x', 7)).not.toEqual({ name: 'x', [ID]: 8 });
  });
  test('the symbol is its own key', () => {
    expect(Object.getOwnPropertySymbols(tagged('y', 1))).toEqual([ID]);
  });
});

describe('frozen objects', () => {
  test('a point is frozen', () => {
    expect(Object.isFrozen(point(1, 2))).toBe(true);
  });
  test('a point equals its coordinates', () => {
    expect(point(1, 2)).toEqual({ x: 1, y: 2, length: Math.sqrt(5) });
  });
  test('a frozen temperature converts through a getter', () => {
    expect(new Temperature(100)).toEqual(new Temperature(100));
    expect(new Temperature(100).fahrenheit).toBe(212);
  });
});

describe('cyclic structures', () => {
  test('peers point at each other', () => {
    const g = graph();
    expect(g.a.peer.peer).toBe(g.a);
  });
  test('two graphs built alike are equal', () => {
    expect(graph()).toEqual(graph());
  });
  test('a graph matches a shape', () => {
    expect(graph()).toMatchObject({ a: { name: 'a' }, b: { name: 'b' } });
  });
});
