// Correct, but written as an ES module although the hidden tests are
// CommonJS (`require('./matrix')`).
const check = (m) => {
  if (!Array.isArray(m) || !m.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
    throw new TypeError('not a matrix of finite numbers');
  }
};

export function rowSums(m) {
  check(m);
  return m.map((r) => r.reduce((a, b) => a + b, 0));
}

export function sumMatrix(m) {
  return rowSums(m).reduce((a, b) => a + b, 0);
}

export function columnSums(m) {
  check(m);
  if (m.length === 0) return [];
  if (m.some((r) => r.length !== m[0].length)) throw new RangeError('ragged matrix');
  return m[0].map((_, j) => m.reduce((a, r) => a + r[j], 0));
}
