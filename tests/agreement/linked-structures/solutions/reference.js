// value and next are own getters (as in exercism's list-ops reference), a ring cycles through next, an account keeps
// its balance in a private field, a bag iterates a private array, a point is frozen with a getter for its length.
export class Node {
  constructor(value, next = null) {
    let following = next;
    Object.defineProperty(this, 'value', { get: () => value, enumerable: true });
    Object.defineProperty(this, 'next', { get: () => following, set: (n) => { following = n; }, enumerable: true });
  }
}

export class Ring {
  static of(...values) {
    const ring = new Ring();
    let last = null;
    for (const v of values) {
      const node = new Node(v);
      if (last) last.next = node;
      else ring.head = node;
      last = node;
    }
    if (last) last.next = ring.head;
    return ring;
  }
  toArray() {
    const out = [];
    if (!this.head) return out;
    let n = this.head;
    do {
      out.push(n.value);
      n = n.next;
    } while (n !== this.head);
    return out;
  }
  rotate() {
    const [first, ...rest] = this.toArray();
    return Ring.of(...rest, first);
  }
}

export class Account {
  #balance;
  constructor(balance) {
    this.#balance = balance;
  }
  get balance() {
    return this.#balance;
  }
  deposit(n) {
    this.#balance += n;
  }
  withdraw(n) {
    if (n > this.#balance) throw new RangeError('insufficient funds');
    this.#balance -= n;
  }
}

export class Bag {
  #items;
  constructor(items) {
    this.#items = [...items];
  }
  *[Symbol.iterator]() {
    yield* this.#items;
  }
}

export function* range(from, to) {
  for (let i = from; i < to; i++) yield i;
}

export const ID = Symbol('id');
export function tagged(name, id) {
  return { name, [ID]: id };
}

export function point(x, y) {
  return Object.freeze({ x, y, get length() { return Math.sqrt(x * x + y * y); } });
}

export class Temperature {
  constructor(celsius) {
    Object.defineProperty(this, 'celsius', { value: celsius, enumerable: true });
    Object.defineProperty(this, 'fahrenheit', { get: () => (celsius * 9) / 5 + 32, enumerable: true });
    Object.freeze(this);
  }
}

export function graph() {
  const a = { name: 'a', peer: null };
  const b = { name: 'b', peer: a };
  a.peer = b;
  return { a, b };
}
