// The job clock on real processes: a job's limit is reached by its own time (CPU it used, time it chose
// to sleep), never by time it waited for a CPU; a job that gets almost no CPU is the machine's failure.
// Each case caps the process's CPU with a cgroup, so what is asserted holds however loaded this machine is.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { STARVED_FACTOR, startJobClock } from '../../src/adapters/sandbox/job-clock.js';
import { cpuCgroup, type CpuCgroup } from '../fakes/slow-machine.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

/** CPU time (user + system) a process has used, from /proc/<pid>/stat, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

function child(code: string, cg: CpuCgroup | null): ChildProcess {
  const c = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  if (cg) cg.add(c.pid as number);
  cleanups.push(() => c.kill('SIGKILL'));
  return c;
}

function capped(fraction: number): CpuCgroup {
  const cg = cpuCgroup('evigrade-clock', fraction);
  if (typeof cg === 'string') throw new Error(cg); // root on Linux: CI and this machine always can
  cleanups.push(() => cg.close());
  return cg;
}

/** Which of the clock's callbacks fired first, with the job's CPU at that moment. */
function race(limitMs: number, pid: number): Promise<{ outcome: 'limit' | 'starved'; cpu: number }> {
  return new Promise((resolve) => {
    const clock = startJobClock(limitMs, () => pid, () => resolve({ outcome: 'limit', cpu: cpuMs(pid) }), () => resolve({ outcome: 'starved', cpu: cpuMs(pid) }));
    cleanups.push(() => clock.stop());
  });
}

describe('the job clock', () => {
  it('a busy job capped at a tenth of a core reaches its limit by its CPU, not by the wall time it waited', async () => {
    const c = child('for (;;) {}', capped(0.1));
    const r = await race(400, c.pid as number);
    // A wall clock would have fired with about 40 ms of CPU used.
    expect([r.outcome, r.cpu >= 300]).toEqual(['limit', true]);
  }, 60_000);

  it('a sleeping job reaches its limit: time it chose to wait counts as its own', async () => {
    const c = child('setTimeout(() => {}, 1e9)', capped(0.1));
    const r = await race(400, c.pid as number);
    expect([r.outcome, r.cpu < 300]).toEqual(['limit', true]);
  }, 60_000);

  it(`a job held under 1/${STARVED_FACTOR} of a CPU is the machine's failure, never a time-limit verdict`, async () => {
    const c = child('for (;;) {}', capped(0.01));
    const r = await race(100, c.pid as number);
    expect(r.outcome).toBe('starved');
  }, 60_000);
});
