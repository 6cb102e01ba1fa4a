// Wrong in places, through the same getters: the ring stops short, the bag drops its last item, a point is not
// frozen, the second node's getter answers the value of the first.
export class Node {
  constructor(value, next = null) {
    let following = next;
    Object.defineProperty(this, 'value', { get: () => (next ? next.value : value), enumerable: true });
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
    return ring;
  }
  toArray() {
    const out = [];
    for (let n = this.head; n; n = n.next) out.push(n.value);
    return out;
  }
  rotate() {
    return this;
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
    this.#balance -= n;
  }
}

export class Bag {
  #items;
  constructor(items) {
    this.#items = items.slice(0, -1);
  }
  *[Symbol.iterator]() {
    yield* this.#items;
  }
}

export function* range(from, to) {
  for (let i = from; i <= to; i++) yield i;
}

export const ID = Symbol('id');
export const tagged = (name, id) => ({ name, id });

export const point = (x, y) => ({ x, y, length: x + y });

export class Temperature {
  constructor(celsius) {
    Object.defineProperty(this, 'celsius', { value: celsius, enumerable: true });
    Object.defineProperty(this, 'fahrenheit', { get: () => celsius * 2 + 30, enumerable: true });
  }
}

export function graph() {
  return { a: { name: 'a', peer: null }, b: { name: 'b', peer: null } };
}
