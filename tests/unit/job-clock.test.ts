// The job clock's arithmetic on made-up samples: what a sample proves about the job's own time, and what
// it cannot prove once threads have gone (their waits leave with them).
import { describe, expect, it } from 'vitest';
import {
  initialClock,
  observe,
  ownAtLeast,
  ownAtMost,
  rebase,
  type Sample,
  type ThreadUsage,
} from '../../src/adapters/sandbox/job-clock.js';

const t = (runMs: number, waitMs: number, runnable = false, slices = 1): ThreadUsage => ({
  runMs,
  waitMs,
  runnable,
  slices,
});
const at = (wallMs: number, threads: Record<string, ThreadUsage>): Sample => ({
  wallMs,
  threads: new Map(Object.entries(threads)),
});
const fold = (...samples: Sample[]) => samples.reduce(observe, initialClock);

describe('the job clock counts own time', () => {
  it("is wall time minus what the threads waited, never less than the busiest thread's CPU", () => {
    const s = fold(at(0, { '1/1': t(0, 0) }), at(4000, { '1/1': t(500, 3000), '1/2': t(100, 400) }));
    expect([ownAtMost(s), ownAtLeast(s, null)]).toEqual([600, 600]);
    const busy = fold(at(4000, { '1/1': t(3900, 3000), '1/2': t(100, 2000) }));
    expect(ownAtLeast(busy, null)).toBe(3900);
  });

  it('a job whose processes are gone proves nothing beyond what was seen: the waits left with its threads', () => {
    // At 4 s the worker has waited 3.5 s; at 6 s it is gone and only the sleeping wrapper remains.
    const s = fold(
      at(0, { '1/1': t(0, 0) }),
      at(4000, { '1/1': t(10, 50), '2/2': t(400, 3500) }),
      at(6000, { '1/1': t(11, 60) }),
    );
    // The upper count subtracts the worker's last known wait; the gap it may have waited since is unknown.
    expect(ownAtMost(s)).toBe(6000 - 60 - 3500);
    expect(ownAtLeast(s, null)).toBe(6000 - 60 - 3500 - 2000);
    // Once nothing is left the job has ended: later samples add nothing, however late they come.
    const gone = observe(observe(s, at(7000, {})), at(60_000, {}));
    expect([ownAtMost(gone), ownAtLeast(gone, null)]).toEqual([ownAtMost(s), ownAtLeast(s, null)]);
  });

  it('a thread runnable now may be in a wait not yet counted: only its CPU since an earlier sample is proof', () => {
    const before = at(5000, { '1/1': t(200, 4700, true, 10) });
    const s = fold(at(0, { '1/1': t(0, 0) }), before);
    // Runnable with no earlier sample: only the busiest thread's CPU is proven.
    expect(ownAtLeast(s, null)).toBe(200);
    // Still runnable and given no CPU since `before`: still nothing more.
    const stuck = observe(s, at(5100, { '1/1': t(200, 4700, true, 10) }));
    expect(ownAtLeast(stuck, before)).toBe(200);
    // Given a CPU since `before`: its wait in progress began at most 100 ms ago.
    const ran = observe(s, at(5100, { '1/1': t(230, 4720, true, 11) }));
    expect(ownAtLeast(ran, before)).toBe(5100 - 4720 - 100);
  });

  it('a job never visible in /proc has wall time only', () => {
    const s = fold(at(0, {}), at(3000, {}));
    expect([ownAtMost(s), ownAtLeast(s, null)]).toEqual([3000, 3000]);
  });
});

describe('a clock started while the job runs (one test, issue 33)', () => {
  it('counts only what came after its first sample: earlier CPU and waits are not the test’s', () => {
    const base = at(5000, { '1/1': t(4000, 900, true, 40), '1/2': t(10, 5) });
    const now = at(7000, { '1/1': t(5900, 1000, true, 60), '1/3': t(50, 20) });
    expect(rebase(now, base)).toEqual(at(2000, { '1/1': t(1900, 100, true, 20), '1/3': t(50, 20) }));
    // Through the clock's own arithmetic: 1.9 s of its own time in the 2 s since, not the busiest thread's 5.9 s.
    const s = fold(rebase(base, base), rebase(now, base));
    expect([ownAtMost(s), ownAtLeast(s, null)]).toEqual([1900, 1900]);
  });
});
