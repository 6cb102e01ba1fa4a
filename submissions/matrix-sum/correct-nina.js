// Correct (CommonJS).
function assertMatrix(m) {
  if (!Array.isArray(m)) throw new TypeError('expected an array of rows');
  for (const row of m) {
    if (!Array.isArray(row)) throw new TypeError('every row must be an array');
    for (const x of row) if (!Number.isFinite(x)) throw new TypeError(`bad element ${x}`);
  }
}

function rowSums(m) {
  assertMatrix(m);
  return m.map((row) => row.reduce((s, x) => s + x, 0));
}

function sumMatrix(m) {
  return rowSums(m).reduce((s, x) => s + x, 0);
}

function columnSums(m) {
  assertMatrix(m);
  if (m.length === 0) return [];
  const n = m[0].length;
  if (m.some((row) => row.length !== n)) throw new RangeError('ragged matrix');
  return m[0].map((_, j) => m.reduce((s, row) => s + row[j], 0));
}

module.exports = { sumMatrix, rowSums, columnSums };
