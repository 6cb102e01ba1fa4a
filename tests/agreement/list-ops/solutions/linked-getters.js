// An honest List kept as a circular linked list behind a sentinel, its nodes exposing `value` and `next` through
// getters (the shape of exercism's own list-ops reference): `values` is a getter too, and `next` cycles back to the
// sentinel. Jest reads the getters and compares the values they produce.
class Node {
  constructor(value, next) {
    let nextNode = next;
    Object.defineProperty(this, 'value', { get: () => value, enumerable: true });
    Object.defineProperty(this, 'next', { get: () => nextNode, set: (n) => { nextNode = n; }, enumerable: true });
  }
}

export class List {
  constructor(values = []) {
    const sentinel = new Node(undefined, null);
    sentinel.next = sentinel;
    let tail = sentinel;
    for (const v of values) {
      const node = new Node(v, sentinel);
      tail.next = node;
      tail = node;
    }
    Object.defineProperty(this, 'head', { value: sentinel, enumerable: false });
    Object.defineProperty(this, 'values', {
      enumerable: true,
      get: () => {
        const out = [];
        for (let n = sentinel.next; n !== sentinel; n = n.next) out.push(n.value);
        return out;
      },
    });
  }
  append(other) {
    return new List([...this.values, ...other.values]);
  }
  filter(pred) {
    return new List(this.values.filter((v) => pred(v)));
  }
  length() {
    return this.values.length;
  }
  foldl(fn, init) {
    let acc = init;
    for (let n = this.head.next; n !== this.head; n = n.next) acc = fn(acc, n.value);
    return acc;
  }
  foldr(fn, init) {
    return this.values.reduceRight((acc, v) => fn(acc, v), init);
  }
  reverse() {
    return new List(this.values.reverse());
  }
}
