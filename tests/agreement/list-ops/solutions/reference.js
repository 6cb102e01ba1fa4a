export class List {
  constructor(values = []) {
    this.values = values;
  }
  append(other) {
    return new List([...this.values, ...other.values]);
  }
  filter(pred) {
    const out = [];
    for (const v of this.values) if (pred(v)) out.push(v);
    return new List(out);
  }
  length() {
    return this.values.length;
  }
  foldl(fn, init) {
    let acc = init;
    for (const v of this.values) acc = fn(acc, v);
    return acc;
  }
  foldr(fn, init) {
    let acc = init;
    for (let i = this.values.length - 1; i >= 0; i--) acc = fn(acc, this.values[i]);
    return acc;
  }
  reverse() {
    const out = [];
    for (let i = this.values.length - 1; i >= 0; i--) out.push(this.values[i]);
    return new List(out);
  }
}
