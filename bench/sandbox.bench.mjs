// Per-job sandbox overhead over the bare (unsandboxed) run, for every backend, in one run:
// docker pooled, docker created per job, bwrap, unshare. Same trivial job each time.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summary } from './cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const D = join(ROOT, 'dist');
const { openSandbox, availability } = await import(join(D, 'adapters', 'sandbox', 'registry.js'));
const { LimitsSchema } = await import(join(D, 'domain', 'rubric.js'));
const N = Number(process.env.BENCH_N ?? 20);

const job = {
  files: [{ path: 'solution.js', content: 'module.exports = { f: (x) => x + 1 };\n', sha256: '', bytes: 0 }],
  payload: { mode: 'run', root: '/job/sub', entry: './solution', tests: [{ name: 'a.test.js', source: "const { f } = require('./solution');\ntest('f', () => { expect(f(1)).toBe(2); });\n" }], only: null, stubNames: [], testTimeoutMs: 5000, outputBytes: 65536 },
  limits: LimitsSchema.parse({}),
};

async function perJob(choice, opts = {}) {
  const sb = await openSandbox(choice, join(ROOT, 'sandbox', 'dist'), opts);
  try {
    for (let i = 0; i < 3; i++) await sb.run(job); // warm: rootfs, code cache, image, pool
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const r = await sb.run(job);
      if (!r.frames.some((f) => f.type === 'done')) throw new Error(`${choice}: job did not finish: ${r.stderr.slice(0, 300)}`);
    }
    return (performance.now() - t0) / N;
  } finally {
    sb.close();
  }
}

const rows = [['bare run (no sandbox)', await perJob('unsafe')]];
if ((await availability('docker')).ok) {
  rows.push(['docker, warm pool of 2', await perJob('docker', { dockerPool: 2 })]);
  rows.push(['docker, container created per job', await perJob('docker', { dockerPool: 0 })]);
}
for (const b of ['bwrap', 'unshare']) if ((await availability(b)).ok) rows.push([b, await perJob(b)]);
const bare = rows[0][1];
console.log(`Sandbox overhead per job (N=${N}, sequential, one trivial test)\n`);
console.log('| backend | wall / job | overhead over bare |\n|---|---|---|');
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(0)} ms | ${name.startsWith('bare') ? '—' : `${(ms - bare).toFixed(0)} ms`} |`);
const pooled = rows.find(([n]) => n.startsWith('docker, warm'));
if (pooled) console.log(`\npooled docker overhead: ${((pooled[1] - bare) / 1000).toFixed(3)} s per job (aim: at most 0.15 s)`);
for (const [name, ms] of rows.slice(1)) summary(`sandbox wall overhead per job: ${name}`, `${ms - bare >= 0 ? '+' : ''}${(ms - bare).toFixed(0)} ms`, `bare run ${bare.toFixed(0)} ms${name.startsWith('docker, warm') ? '; aim ≤ 150 ms' : ''}`);
