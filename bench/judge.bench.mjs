// A batch with a fake judge of fixed latency: does judge latency overlap with
// sandbox work? Throughput is compared with the bound set by judge concurrency
// (J / latency) and sandbox capacity (the same batch with --no-llm), in one run.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_JUDGE_N ?? 80);
const LATENCY = Number(process.env.BENCH_JUDGE_MS ?? 400);
const J = Number(process.env.BENCH_JUDGE_CONCURRENCY ?? 4);
const C = Number(process.env.BENCH_CONCURRENCY ?? 2);

const work = mkdtempSync(join(tmpdir(), 'evigrade-judgebench-'));
try {
  // The fake judge is the test suite's own (TypeScript): bundled here on the fly.
  const fakeJs = join(work, 'judge-server.mjs');
  await build({
    entryPoints: [join(ROOT, 'tests', 'fakes', 'judge-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: fakeJs,
    logLevel: 'error',
  });
  const { startFakeJudge } = await import(pathToFileURL(fakeJs).href);
  const subs = join(work, 'subs');
  for (let i = 0; i < N; i++) {
    mkdirSync(join(subs, `s${String(i).padStart(3, '0')}`), { recursive: true });
    // Distinct code per submission, so no judge answer is shared through the cache.
    writeFileSync(
      join(subs, `s${String(i).padStart(3, '0')}`, 'leap.js'),
      `// ${i}\nexport const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % ${400 + 0 * i} === 0) && ${i} >= 0;\n`,
    );
  }
  const rubric = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
  // Asynchronous on purpose: the fake judge answers from this very process.
  const grade = (extra) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      execFile(
        process.execPath,
        [
          join(ROOT, 'bin', 'evigrade.js'),
          'grade',
          subs,
          '--rubric',
          rubric,
          '--out',
          join(work, `out-${Date.now()}`),
          '--concurrency',
          String(C),
          ...extra,
        ],
        { cwd: work, maxBuffer: 64 << 20 },
        (err, _out, stderr) => {
          if (err) reject(new Error(`grade failed: ${stderr.slice(0, 1000)}`));
          else resolve((performance.now() - t0) / 1000);
        },
      );
    });
  const sandboxOnly = await grade(['--no-llm']);
  const fake = await startFakeJudge({ latencyMs: LATENCY });
  writeFileSync(
    join(work, 'config.yaml'),
    `judge:\n  concurrency: ${J}\n  rate_per_minute: 0\n  cache_dir: ${join(work, 'cache')}\n`,
  );
  const withJudge = await grade([
    '--config',
    join(work, 'config.yaml'),
    '--judge-endpoint',
    fake.url,
    '--judge-model',
    'honest',
  ]);
  await fake.close();

  const sandboxRate = N / sandboxOnly;
  const judgeRate = J / (LATENCY / 1000);
  const bound = Math.min(sandboxRate, judgeRate);
  const rate = N / withJudge;
  console.log(`Batch of ${N} with a fake judge of ${LATENCY} ms, judge concurrency ${J}, sandbox concurrency ${C}\n`);
  console.log('| case | wall | submissions/s |\n|---|---|---|');
  console.log(`| sandbox only (--no-llm) | ${sandboxOnly.toFixed(2)} s | ${sandboxRate.toFixed(2)} |`);
  console.log(`| judge bound J / latency | — | ${judgeRate.toFixed(2)} |`);
  console.log(`| with the judge | ${withJudge.toFixed(2)} s | ${rate.toFixed(2)} |`);
  console.log(
    `\nthroughput is ${((100 * rate) / bound).toFixed(0)}% of the bound min(sandbox, judge) = ${bound.toFixed(2)}/s (aim: at least 90%)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
