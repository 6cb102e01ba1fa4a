// The trivial exercise two benches time a harness job on (grade.bench.mjs, realm.bench.mjs): exercism's leap,
// its eight cases as a Jest-style CommonJS test file, and a CommonJS solution.
export const CASES = [
  [2015, false],
  [1970, false],
  [1996, true],
  [2100, false],
  [2000, true],
  [1800, false],
  [2400, true],
  [2024, true],
];
export const CJS_SOLUTION =
  'const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\nmodule.exports = { isLeap };\n';
export const JEST_TEST = `const { isLeap } = require('./leap');\ndescribe('A leap year', () => {\n${CASES.map(([y, r]) => `  test('year ${y}', () => { expect(isLeap(${y})).toBe(${r}); });`).join('\n')}\n});\n`;
