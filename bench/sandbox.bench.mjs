// Per-job sandbox overhead over the bare (unsandboxed) run, for every backend, in one run, idle and under load
// (a busy loop on every core): Docker with containers started ahead (`sandbox.docker_pool`, 2), Docker with a
// container started per job (pool 0: the old per-job start), bwrap, unshare. Same trivial job each time.
import { spawn } from 'node:child_process';
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
const over = (xs, i) => (i === 0 ? '—' : `${xs[i] - xs[0] >= 0 ? '+' : ''}${(xs[i] - xs[0]).toFixed(0)} ms`);
const overBwrap = (xs, i) => {
  const b = backends.findIndex(([, c]) => c === 'bwrap');
  return b < 0 || i <= b ? '' : `${xs[i] - xs[b] >= 0 ? '+' : ''}${(xs[i] - xs[b]).toFixed(0)} ms`;
};
console.log(`Sandbox overhead per job (N=${N} sequential jobs, median wall, one trivial test; loaded = a busy loop on each of ${cpus().length} cores)\n`);
console.log(table(['backend', 'idle', 'over bare', 'over bwrap', 'loaded', 'over bare', 'over bwrap'],
  backends.map(([name], i) => [name, `${idle[i].toFixed(0)} ms`, over(idle, i), overBwrap(idle, i), `${loaded[i].toFixed(0)} ms`, over(loaded, i), overBwrap(loaded, i)])));
for (const [i, [name]] of backends.entries()) {
  if (i === 0) continue;
  const aim = name.includes('started ahead') ? '; aim ≤ 150 ms' : '';
  summary(`sandbox wall per job over bare: ${name}`, `idle ${over(idle, i)}, loaded ${over(loaded, i)}`, `bare ${idle[0].toFixed(0)} / ${loaded[0].toFixed(0)} ms${aim}`);
}
