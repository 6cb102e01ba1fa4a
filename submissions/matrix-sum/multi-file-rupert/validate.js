exports.validate = (m) => {
  if (!Array.isArray(m)) throw new TypeError('matrix must be an array');
  for (const row of m) {
    if (!Array.isArray(row)) throw new TypeError('rows must be arrays');
    if (!row.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new TypeError('elements must be finite numbers');
  }
};
