// Per-job sandbox overhead over the bare (unsandboxed) run, for every backend, in one run, idle and under load
// (a busy loop on every core): Docker with containers started ahead (`sandbox.docker_pool`, 2), Docker with a
// container started per job (pool 0: the old per-job start), bwrap, unshare. Same trivial job each time.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpu, summary, table } from './cpu.mjs';
import { engineCpu } from './engine-cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const D = join(ROOT, 'dist');
const { openSandbox, availability } = await import(join(D, 'adapters', 'sandbox', 'registry.js'));
const { LimitsSchema } = await import(join(D, 'domain', 'rubric.js'));
const N = Number(process.env.BENCH_N ?? 20);

const job = {
  runtime: 'node',
  files: [{ path: 'solution.js', content: 'module.exports = { f: (x) => x + 1 };\n', sha256: '', bytes: 0 }],
  payload: {
    mode: 'run',
    root: '/job/sub',
    entry: './solution',
    tests: [
      {
        name: 'a.test.js',
        source: "const { f } = require('./solution');\ntest('f', () => { expect(f(1)).toBe(2); });\n",
      },
    ],
    only: null,
    stubNames: [],
    testTimeoutMs: 5000,
    outputBytes: 65536,
    builtins: [],
  },
  limits: LimitsSchema.parse({}),
};

/**
 * Median wall time per job of each backend: N rounds, one job per backend each round (interleaved, so a change
 * in the machine's load touches every backend alike), after 3 warm-up jobs each (root, code cache, image, pool).
 */
async function perJob(sandboxes) {
  for (const sb of sandboxes) for (let i = 0; i < 3; i++) await sb.run(job);
  const times = sandboxes.map(() => []);
  for (let round = 0; round < N; round++) {
    for (const [k, sb] of sandboxes.entries()) {
      const t0 = performance.now();
      const r = await sb.run(job);
      times[k].push(performance.now() - t0);
      if (!r.frames.some((f) => f.type === 'done'))
        throw new Error(`${sb.backend.id}: job did not finish: ${r.stderr.slice(0, 300)}`);
    }
  }
  // Overheads are paired: each round's job minus the bare job of the same round, so load that drifts between
  // rounds cancels; the median of those differences.
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: times.map(med), over: times.map((xs) => med(xs.map((x, r) => x - times[0][r]))) };
}

/**
 * What a Docker job costs in all, per job: its container's processes and the engine's (dockerd, containerd, the
 * per-container shims and the runc they run), counted by engine-cpu.mjs. Until 2026-11-27 this polled the shims'
 * CPU with the children they reaped, which held the container's own processes: the "engine" figure was container and
 * engine together, as it is now, said so.
 */
async function engineCpuPerJob(opts) {
  const counting = await engineCpu();
  const sb = await openSandbox('docker', join(ROOT, 'sandbox', 'dist'), opts);
  sb.expect?.(N);
  for (let i = 0; i < N; i++) await sb.run(job);
  sb.close();
  await new Promise((res) => setTimeout(res, 2000)); // the last containers removed, the pool torn down
  return (await counting.stop()).total / N;
}

/** CPU per job of the sandboxed processes themselves, counted in this bench's cpuacct cgroup (bare, bwrap, unshare). */
async function ownCpuPerJob(choice) {
  const sb = await openSandbox(choice, join(ROOT, 'sandbox', 'dist'));
  await sb.run(job);
  const before = counter.childMs() + ownMs();
  for (let i = 0; i < N; i++) await sb.run(job);
  const after = counter.childMs() + ownMs();
  sb.close();
  return (after - before) / N;
}
const ownMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const counter = childCpu();

/** A busy loop on every core (ours, killed by pid when the block ends). */
async function underLoad(fn) {
  const loops = cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    return await fn();
  } finally {
    for (const l of loops) l.kill('SIGKILL');
  }
}

// The bare run starts its job from boot.cjs and its code cache (it sees host paths, which a start-up snapshot cannot
// name); bwrap and unshare start theirs from the harness's start-up snapshot, ≈ 5–10 ms of CPU cheaper (realm.bench),
// so their CPU over bare is the sandbox's own cost minus that. Docker starts from boot.cjs, as the bare run does.
const backends = [['bare run (no sandbox)', 'unsafe', {}]];
if ((await availability('bwrap')).ok) backends.push(['bwrap', 'bwrap', {}]);
if ((await availability('docker')).ok) {
  backends.push(['docker, 2 containers started ahead', 'docker', { dockerPool: 2 }]);
  backends.push(['docker, a container started per job (pool 0)', 'docker', { dockerPool: 0 }]);
}
if ((await availability('unshare')).ok) backends.push(['unshare', 'unshare', {}]);

const sandboxes = [];
for (const [, choice, opts] of backends) sandboxes.push(await openSandbox(choice, join(ROOT, 'sandbox', 'dist'), opts));
const idle = await perJob(sandboxes);
const loaded = await underLoad(() => perJob(sandboxes));
for (const sb of sandboxes) sb.close();
await new Promise((res) => setTimeout(res, 1500));
// CPU: the job's processes and the grader's side for the process backends; for Docker, the container's processes and
// the engine's (engine-cpu.mjs; the grader's own side, the dockerode calls, is not in it).
const cpu = [];
for (const [, choice, opts] of backends)
  cpu.push(choice === 'docker' ? await engineCpuPerJob(opts) : await ownCpuPerJob(choice));
counter.close();
const signed = (ms) => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)} ms`;
const over = (xs, i) => (i === 0 ? '—' : signed(xs[i] - xs[0]));
const overPaired = (m, i) => (i === 0 ? '—' : signed(m.over[i]));
const overBwrap = (m, i) => {
  const b = backends.findIndex(([, c]) => c === 'bwrap');
  return b < 0 || i <= b ? '' : signed(m.over[i] - m.over[b]);
};
console.log(
  `Sandbox overhead per job (N=${N} rounds of one job per backend, median wall; overheads: median of each round's difference from the bare job, one trivial test; loaded = a busy loop on each of ${cpus().length} cores; bwrap and unshare jobs start from the harness's start-up snapshot, the bare and Docker ones from boot.cjs)\n`,
);
console.log(
  table(
    [
      'backend',
      'idle',
      'over bare',
      'over bwrap',
      'loaded',
      'over bare',
      'over bwrap',
      'CPU / job (docker: container + engine)',
      'over bare',
    ],
    backends.map(([name], i) => [
      name,
      `${idle.wall[i].toFixed(0)} ms`,
      overPaired(idle, i),
      overBwrap(idle, i),
      `${loaded.wall[i].toFixed(0)} ms`,
      overPaired(loaded, i),
      overBwrap(loaded, i),
      `${cpu[i].toFixed(0)} ms`,
      over(cpu, i),
    ]),
  ),
);
for (const [i, [name]] of backends.entries()) {
  if (i === 0) continue;
  const aim = name.includes('started ahead') ? '; aim ≤ 150 ms' : '';
  const cpuOver = backends[i][1] === 'docker' ? `${over(cpu, i)} (container + engine)` : over(cpu, i);
  summary(
    `sandbox per job over bare: ${name}`,
    `wall idle ${overPaired(idle, i)}, loaded ${overPaired(loaded, i)}; CPU ${cpuOver}`,
    `bare ${idle.wall[0].toFixed(0)} / ${loaded.wall[0].toFixed(0)} ms wall, ${cpu[0].toFixed(0)} ms CPU${aim}`,
  );
}
