'use strict';
// Per-test timeouts in the job's own time, as the grader's job clock counts it (src/adapters/sandbox/job-clock.ts):
// wall time minus the time the harness's thread waited for a CPU while runnable. On a loaded machine a test
// that needs 300 ms of CPU still fits a 1 s timeout; a never-settling promise (sleeping) times out as in Jest.
// Read when a timer fires, on the JS thread itself: it is running then, so Linux has already added every wait
// it had (/proc/self/schedstat, second field). Without /proc the count is wall time, as in Jest.
const P = require('./primordials.cjs');

// One descriptor, read from offset 0 each time (the kernel regenerates the text on every read from 0): a test
// starts with one read, where opening, reading and closing the file cost ≈ 0.2 ms.
let schedstat = -1;
const text = new Uint8Array(256);

function waitedMs() {
  try {
    if (schedstat < 0) schedstat = P.openSync('/proc/self/schedstat', 'r');
    return secondField(P.readSync(schedstat, text, 0, text.length, 0)) / 1e6;
  } catch {
    return 0;
  }
}

/** The second space-separated decimal number of the first `n` bytes of `text` (0 if there is none). */
function secondField(n) {
  let i = 0;
  while (i < n && text[i] !== 32) i++;
  let value = 0;
  for (i++; i < n && text[i] >= 48 && text[i] <= 57; i++) value = value * 10 + (text[i] - 48);
  return value;
}

const nowMs = () => {
  const [s, ns] = P.hrtime();
  return s * 1e3 + ns / 1e6;
};

/** Calls `onTimeout` once `ms` of own time has passed; `clear()` cancels. */
function ownTimeout(ms, onTimeout) {
  const start = nowMs();
  const waited0 = waitedMs();
  let timer = null;
  const check = () => {
    const own = nowMs() - start - (waitedMs() - waited0);
    if (own >= ms) return onTimeout();
    timer = P.setTimeout(check, ms - own);
  };
  timer = P.setTimeout(check, ms);
  return { clear: () => P.clearTimeout(timer) };
}

module.exports = { ownTimeout };
