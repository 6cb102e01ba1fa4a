// Correct, split over files: the entry requires helpers beside it
// (one extensionless, one in a subfolder).
const { validate } = require('./validate');
const { add } = require('./lib/math.js');

function rowSums(m) {
  validate(m);
  return m.map((row) => row.reduce(add, 0));
}

function sumMatrix(m) {
  return rowSums(m).reduce(add, 0);
}

function columnSums(m) {
  validate(m);
  if (m.length === 0) return [];
  const width = m[0].length;
  if (m.some((row) => row.length !== width)) throw new RangeError('ragged matrix');
  const out = Array(width).fill(0);
  for (const row of m) row.forEach((x, j) => { out[j] = add(out[j], x); });
  return out;
}

module.exports = { sumMatrix, rowSums, columnSums };
