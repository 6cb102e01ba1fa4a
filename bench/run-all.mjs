// `npm run bench`: every benchmark, each bounded in time (killed at its bound and reported as such), the whole
// run under thirty minutes on this 2-core machine (ten before the Python class of issue 36), closing with one summary table. Figures come from each bench's
// `BENCH-SUMMARY` lines (bench/cpu.mjs), else its last line. Sizes are the benches' own knobs, set here so the
// run fits; run a bench alone (`node bench/<name>.bench.mjs`) for its full-size defaults. grade.bench.mjs (the older
// marginal view on a trivial test file) is left out: batch.bench.mjs measures the same on a real exercise.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './cpu.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const BUDGET_S = Number(process.env.BENCH_BUDGET_S ?? 1800);
const BENCHES = [
  { name: 'startup', bound: 60, env: { BENCH_RUNS: '5' } },
  // 420 s with three runs was not enough on a loaded machine (stopped with no figure): two runs, a longer bound
  { name: 'batch', bound: 600, env: { BENCH_RUNS: '2' } },
  { name: 'pybatch', bound: 600, env: { BENCH_RUNS: '2', BENCH_BIG_RUNS: '1' } },
  { name: 'docker-cell', bound: 420, env: { BENCH_RUNS: '2' } },
  { name: 'corpus', bound: 200, env: { BENCH_RUNS: '1' } },
  { name: 'realm', bound: 60, env: { BENCH_RUNS: '11' } },
  { name: 'sandbox', bound: 150, env: { BENCH_N: '8' } },
  { name: 'lint', bound: 45, env: { BENCH_N: '10' } },
  { name: 'python', bound: 120, env: { BENCH_N: '3', BENCH_RUNS: '3', BENCH_ANALYSE_N: '100' } },
  { name: 'judge', bound: 30, env: { BENCH_JUDGE_N: '40' } },
  { name: 'http', bound: 100, env: { BENCH_HTTP_SECONDS: '4', BENCH_HTTP_REQUESTS: '1500' } },
  { name: 'queue', bound: 80, env: { BENCH_N: '16', BENCH_SEQ: '6' } },
  { name: 'store', bound: 60, env: {} },
  { name: 'replicas', bound: 120, env: { BENCH_HTTP_SECONDS: '5', BENCH_N: '16' } },
];

function runOne(b, boundS) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(HERE, `${b.name}.bench.mjs`)], {
      env: { ...process.env, ...b.env },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL'); // the bench and everything it started
      } catch {
        // gone
      }
    }, boundS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, seconds: (performance.now() - t0) / 1000, out });
    });
  });
}

// BENCH_ONLY=batch,pybatch,docker-cell runs those alone (the class targets of issue 36 side by side), same table.
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const started = performance.now();
const rows = [];
for (const b of BENCHES.filter((x) => !ONLY || ONLY.has(x.name))) {
  const left = BUDGET_S - (performance.now() - started) / 1000;
  if (left < 10) {
    rows.push([b.name, "skipped: the run's budget is spent", '', '', '']);
    continue;
  }
  const bound = Math.min(b.bound, left);
  process.stdout.write(`\n## ${b.name}.bench.mjs (bound ${bound.toFixed(0)} s)\n\n`);
  const r = await runOne(b, bound);
  const status = r.timedOut
    ? `stopped at its ${bound.toFixed(0)} s bound`
    : r.code === 0
      ? 'ok'
      : `failed (exit ${r.code})`;
  const lines = r.out.split('\n').filter((l) => l.startsWith('BENCH-SUMMARY '));
  if (lines.length === 0) {
    const last = r.out.trim().split('\n').filter(Boolean).pop() ?? '';
    rows.push([b.name, `${status}, ${r.seconds.toFixed(0)} s`, last.replaceAll('|', '/'), '', '']);
  }
  for (const [i, l] of lines.entries()) {
    const [figure, value, baseline] = l.slice('BENCH-SUMMARY '.length).split(' | ');
    rows.push([
      i === 0 ? b.name : '',
      i === 0 ? `${status}, ${r.seconds.toFixed(0)} s` : '',
      figure ?? '',
      value ?? '',
      baseline ?? '',
    ]);
  }
}
process.stdout.write(`\n## Summary (${((performance.now() - started) / 1000).toFixed(0)} s in all)\n\n`);
process.stdout.write(`${table(['bench', 'status', 'figure', 'measured', 'beside (same run)'], rows)}\n`);
