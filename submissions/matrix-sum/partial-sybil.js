// Partially correct: right sums for well-formed input, but no validation,
// ragged matrices are not rejected, and columnSums([]) crashes.
exports.sumMatrix = (m) => m.flat().reduce((a, b) => a + b, 0);
exports.rowSums = (m) => m.map((r) => r.reduce((a, b) => a + b, 0));
exports.columnSums = (m) => m[0].map((_, j) => m.reduce((a, r) => a + (r[j] ?? 0), 0));
