// Wrong: misreads the task (multiplies instead of adding, sums rows for
// columns) and never validates; it does load and run.
function sumMatrix(m) {
  return m.flat().reduce((a, b) => a * b, 1);
}
function rowSums(m) {
  return m.map((r) => r.length);
}
function columnSums(m) {
  return rowSums(m);
}
module.exports = { sumMatrix, rowSums, columnSums };
