'use strict';
// Reference solution for the matrix-sum rubric (CommonJS).

function checkMatrix(matrix) {
  if (!Array.isArray(matrix) || !matrix.every(Array.isArray)) {
    throw new TypeError('matrix must be an array of arrays');
  }
  for (const row of matrix) {
    for (const v of row) {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`not a finite number: ${String(v)}`);
    }
  }
}

const sumRow = (row) => row.reduce((a, b) => a + b, 0);

function sumMatrix(matrix) {
  checkMatrix(matrix);
  return matrix.reduce((total, row) => total + sumRow(row), 0);
}

function rowSums(matrix) {
  checkMatrix(matrix);
  return matrix.map(sumRow);
}

function columnSums(matrix) {
  checkMatrix(matrix);
  if (matrix.length === 0) return [];
  const width = matrix[0].length;
  if (matrix.some((row) => row.length !== width)) throw new RangeError('ragged matrix: rows differ in length');
  const out = new Array(width).fill(0);
  for (const row of matrix) row.forEach((v, j) => { out[j] += v; });
  return out;
}

module.exports = { sumMatrix, rowSums, columnSums };
