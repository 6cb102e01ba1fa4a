export class List {
  constructor(values = []) {
    this.values = [...values];
  }
  append(other) {
    return new List(this.values.concat(other.values));
  }
  // Asks the predicate twice per element; length is a property, not a method.
  filter(pred) {
    return new List(this.values.filter((v) => pred(v) && pred(v)));
  }
  get len() {
    return this.values.length;
  }
  foldl(fn, init) {
    return this.values.reduce(fn, init);
  }
  foldr(fn, init) {
    return this.values.reduceRight(fn, init);
  }
  reverse() {
    return new List(this.values.reverse());
  }
}
