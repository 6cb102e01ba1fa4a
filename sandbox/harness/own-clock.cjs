'use strict';
// Per-test timeouts in the job's own time, as the grader's job clock counts it (src/adapters/sandbox/job-clock.ts):
// wall time minus the time the harness's thread waited for a CPU while runnable. On a loaded machine a test
// that needs 300 ms of CPU still fits a 1 s timeout; a never-settling promise (sleeping) times out as in Jest.
// Read when a timer fires, on the JS thread itself: it is running then, so Linux has already added every wait
// it had (/proc/self/schedstat, second field). Without /proc the count is wall time, as in Jest.
const P = require('./primordials.cjs');

function waitedMs() {
  try {
    return Number(P.StringSplit(P.readFileSync('/proc/self/schedstat', 'latin1'), ' ')[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

const nowMs = () => {
  const [s, ns] = P.hrtime();
  return s * 1e3 + ns / 1e6;
};

/**
 * Calls `onTimeout` once `ms` of own time has passed; `clear()` cancels. A wait counts only within what it can be: never
 * negative, never longer than the wall time that passed. (The count is read by path each time: a descriptor kept open
 * could be closed by the submission and its number reused for a file of its own, which made every test's own time
 * negative — red-team pass 2026-11-23, docs/harness.md class 11. The process's CPU is no lower bound: V8's collector and
 * compiler threads add to it, so a CPU-bound test near its limit would time out where Jest's would not.)
 */
function ownTimeout(ms, onTimeout) {
  const start = nowMs();
  const waited0 = waitedMs();
  let timer = null;
  const check = () => {
    const wall = nowMs() - start;
    const waited = Math.min(Math.max(waitedMs() - waited0, 0), wall);
    const own = wall - waited;
    if (own >= ms) return onTimeout();
    timer = P.setTimeout(check, ms - own);
  };
  timer = P.setTimeout(check, ms);
  return { clear: () => P.clearTimeout(timer) };
}

module.exports = { ownTimeout };
