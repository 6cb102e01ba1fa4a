// Per-job sandbox overhead over the bare (unsandboxed) run, for every backend, in one run, idle and under load
// (a busy loop on every core): Docker with containers started ahead (`sandbox.docker_pool`, 2), Docker with a
// container started per job (pool 0: the old per-job start), bwrap, unshare. Same trivial job each time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summary, table } from './cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const D = join(ROOT, 'dist');
const { openSandbox, availability } = await import(join(D, 'adapters', 'sandbox', 'registry.js'));
const { LimitsSchema } = await import(join(D, 'domain', 'rubric.js'));
const N = Number(process.env.BENCH_N ?? 20);

const job = {
  runtime: 'node',
  files: [{ path: 'solution.js', content: 'module.exports = { f: (x) => x + 1 };\n', sha256: '', bytes: 0 }],
  payload: { mode: 'run', root: '/job/sub', entry: './solution', tests: [{ name: 'a.test.js', source: "const { f } = require('./solution');\ntest('f', () => { expect(f(1)).toBe(2); });\n" }], only: null, stubNames: [], testTimeoutMs: 5000, outputBytes: 65536, builtins: [] },
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
      if (!r.frames.some((f) => f.type === 'done')) throw new Error(`${sb.backend.id}: job did not finish: ${r.stderr.slice(0, 300)}`);
    }
  }
  return times.map((xs) => xs.sort((a, b) => a - b)[Math.floor(N / 2)]);
}

/** The whole machine's busy CPU so far, ms (/proc/stat: user, nice, system, irq, softirq, steal; 10 ms ticks). */
function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0)) * 10;
}

/**
 * CPU per job of the whole machine (the engine's daemons, shims and runc included, which no cgroup of ours sees): a
 * block of N jobs per backend, the sandbox closed and its containers removed inside the block. Other work on the
 * machine is counted too: compare within a run; the median of BENCH_CPU_BLOCKS blocks.
 */
async function machineCpuPerJob(choice, opts) {
  const blocks = [];
  for (let b = 0; b < Number(process.env.BENCH_CPU_BLOCKS ?? 3); b++) {
    const sb = await openSandbox(choice, join(ROOT, 'sandbox', 'dist'), opts);
    await sb.run(job);
    const before = machineCpu();
    for (let i = 0; i < N; i++) await sb.run(job);
    sb.close();
    await new Promise((res) => setTimeout(res, 1500)); // containers removed, pools torn down
    blocks.push((machineCpu() - before) / N);
  }
  return blocks.sort((a, b) => a - b)[Math.floor(blocks.length / 2)];
}

/** A busy loop on every core (ours, killed by pid when the block ends). */
async function underLoad(fn) {
  const loops = cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    return await fn();
  } finally {
    for (const l of loops) l.kill('SIGKILL');
  }
}

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
const cpu = [];
for (const [, choice, opts] of backends) cpu.push(await machineCpuPerJob(choice, opts));
const over = (xs, i) => (i === 0 ? '—' : `${xs[i] - xs[0] >= 0 ? '+' : ''}${(xs[i] - xs[0]).toFixed(0)} ms`);
const overBwrap = (xs, i) => {
  const b = backends.findIndex(([, c]) => c === 'bwrap');
  return b < 0 || i <= b ? '' : `${xs[i] - xs[b] >= 0 ? '+' : ''}${(xs[i] - xs[b]).toFixed(0)} ms`;
};
console.log(`Sandbox overhead per job (N=${N} sequential jobs, median wall, one trivial test; loaded = a busy loop on each of ${cpus().length} cores)\n`);
console.log(table(['backend', 'idle', 'over bare', 'over bwrap', 'loaded', 'over bare', 'over bwrap', 'machine CPU / job', 'over bare'],
  backends.map(([name], i) => [name, `${idle[i].toFixed(0)} ms`, over(idle, i), overBwrap(idle, i), `${loaded[i].toFixed(0)} ms`, over(loaded, i), overBwrap(loaded, i), `${cpu[i].toFixed(0)} ms`, over(cpu, i)])));
for (const [i, [name]] of backends.entries()) {
  if (i === 0) continue;
  const aim = name.includes('started ahead') ? '; aim ≤ 150 ms' : '';
  summary(`sandbox per job over bare: ${name}`, `wall idle ${over(idle, i)}, loaded ${over(loaded, i)}; machine CPU ${over(cpu, i)}`, `bare ${idle[0].toFixed(0)} / ${loaded[0].toFixed(0)} ms wall, ${cpu[0].toFixed(0)} ms CPU${aim}`);
}
