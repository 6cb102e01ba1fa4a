// The job clock on real processes: a job's limit is reached by its own time (CPU it used, time it chose
// to sleep), never by time it waited for a CPU; a job that gets almost no CPU is the machine's failure.
// Each case caps the process's CPU with a cgroup, so what is asserted holds however loaded this machine is.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STARVED_FACTOR, startJobClock } from '../../src/adapters/sandbox/job-clock.js';
import { cpuCgroup, type CpuCgroup } from '../fakes/slow-machine.js';
import { gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';

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
    const clock = startJobClock(
      limitMs,
      () => pid,
      () => resolve({ outcome: 'limit', cpu: cpuMs(pid) }),
      () => resolve({ outcome: 'starved', cpu: cpuMs(pid) }),
    );
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

  it('a job whose worker has exited is not charged the wall time until the grader hears of it', async () => {
    // The worker needs ~150 ms of CPU (seconds of wall time at a tenth of a core, mostly waiting); then
    // the root sleeps 2 s, as a wrapper does until the grader reaps it. Own time ≈ 2.3 s of a 3 s limit.
    const burn = 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 150000) {}';
    const c = child(
      `require('child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(burn)}]); setTimeout(() => {}, 2000);`,
      capped(0.1),
    );
    const outcome = await new Promise<string>((resolve) => {
      const clock = startJobClock(
        3000,
        () => c.pid as number,
        () => resolve('limit'),
        () => resolve('starved'),
      );
      cleanups.push(() => clock.stop());
      c.on('exit', () => {
        clock.stop();
        resolve('exited');
      });
    });
    expect(outcome).toBe('exited');
  }, 60_000);

  it(`a job held under 1/${STARVED_FACTOR} of a CPU is the machine's failure, never a time-limit verdict`, async () => {
    const c = child('for (;;) {}', capped(0.01));
    const r = await race(100, c.pid as number);
    expect(r.outcome).toBe('starved');
  }, 60_000);
});

describe("one test's watch (test-watch.ts) counts the busiest thread's CPU only", () => {
  it('a test blocked on a pipe the grader is slow to read is not stopped; a busy one is, by its CPU', async () => {
    const fired: string[] = [];
    const watch = (name: string, pid: number, onLimit: () => void = () => undefined) => {
      const clock = startJobClock(
        400,
        () => pid,
        () => (fired.push(name), onLimit()),
        () => fired.push(`${name} starved`),
        undefined,
        true,
        'cpu',
      );
      cleanups.push(() => clock.stop());
    };
    // Blocked in write(2) on a full pipe nobody reads: sleeping, not waiting for a CPU, so the job's own time (wall
    // less CPU waits) grows with the wall clock, as it would behind a grader too busy to drain the job's frames.
    const blocked = spawn(process.execPath, ['-e', "require('fs').writeSync(1, Buffer.alloc(1 << 22))"], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    cleanups.push(() => blocked.kill('SIGKILL'));
    watch('blocked', blocked.pid as number);
    // The busy one at a tenth of a core needs ≈ 4 s of wall time for its 400 ms: the blocked one is blocked as long.
    const busy = child('for (;;) {}', capped(0.1));
    const started = performance.now();
    await new Promise<void>((resolve) => watch('busy', busy.pid as number, resolve));
    expect([fired, performance.now() - started > 1000, cpuMs(busy.pid as number) >= 300]).toEqual([
      ['busy'],
      true,
      true,
    ]);
  }, 60_000);
});

describe("the harness's per-test timeouts", () => {
  // This test process is moved into a capped cgroup while it grades, so the sandboxed job it spawns
  // (bwrap, unshare: children of the grader) runs at a twentieth of a core. Docker's containers are not
  // its children; the same harness code runs there.
  it.each(['bwrap', 'unshare'] as const)(
    "count the job's own time (%s): an async test needing a fraction of its timeout in CPU passes at 5% of a core; a never-settling promise still times out",
    async (backend) => {
      if (!(await isolatingBackends()).find((b) => b.id === backend)?.ok)
        throw new Error(`${backend} is not available here`);
      const rubric = inlineRubric(
        {
          't.test.js': `const { work } = require('./solution');
test('computes', async () => { let x = 0; for (let i = 0; i < 10; i++) { x += work(1e7); await new Promise((r) => setImmediate(r)); } expect(x).toBeGreaterThan(0); }, 3000);
test('never settles', () => new Promise(() => {}), 500);`,
        },
        { limits: { timeout_ms: 60_000 } },
      );
      const files = {
        'solution.js':
          'exports.work = (n) => { let x = 0; for (let i = 0; i < n; i++) x = (x + i) % 1000003; return x + 1; };\n',
      };
      // Uncapped first: the same verdicts, and the analysis workers are warm before the cap.
      expect(statuses(await gradeInline(backend, rubric, files))).toEqual({
        computes: 'passed',
        'never settles': 'timeout',
      });
      const cg = capped(0.05);
      cg.add(process.pid);
      try {
        const r = await gradeInline(backend, rubric, files);
        expect(statuses(r)).toEqual({ computes: 'passed', 'never settles': 'timeout' });
      } finally {
        writeFileSync(join(cg.path, '..', 'cgroup.procs'), String(process.pid));
      }
    },
    300_000,
  );
});
