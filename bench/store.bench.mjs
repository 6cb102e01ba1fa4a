// What the grading history adds per graded submission: recording one report (a real one, ~20 KB) in the
// embedded Postgres (PGlite) and in a Postgres server, beside the file-only path (the atomic report write
// every run does anyway); and what `serve --db` keeps per batch submission instead of a report file: the result and
// its history row in one transaction (batches in the store, shared by replicas). Wall time per record, sequential,
// median of BENCH_N (200) after 20 warm-up records.
// The server: BENCH_PG_URL (an empty database; for instance one started from Debian's postgresql on loopback).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { openHistory, openMigrated } = await import(join(ROOT, 'dist', 'adapters', 'store', 'history.js'));
const { batchesOver } = await import(join(ROOT, 'dist', 'adapters', 'store', 'batches.js'));
const { writeFileAtomic } = await import(join(ROOT, 'dist', 'adapters', 'fs', 'atomic.js'));
const N = Number(process.env.BENCH_N ?? 200);
const work = mkdtempSync(join(tmpdir(), 'evigrade-store-bench-'));

// A report as `grade` writes it, re-identified per record so every row is its own submission's first grading.
const base = await sampleReport();
async function sampleReport() {
  const { execFileSync } = await import('node:child_process');
  const out = join(work, 'sample');
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'evigrade.js'),
      'grade',
      join(ROOT, 'submissions', 'leap'),
      '--rubric',
      join(ROOT, 'rubrics', 'leap', 'rubric.yaml'),
      '--out',
      out,
      '--no-llm',
      '--sandbox',
      'bwrap',
    ],
    { stdio: 'ignore', env: { ...process.env, CI: 'true' } },
  );
  return JSON.parse(readFileSync(join(out, 'partial-bob.json'), 'utf8'));
}
const reportN = (i) => ({ ...base, submission: { ...base.submission, id: `s${i}` } });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function perRecord(fn) {
  for (let i = 0; i < 20; i++) await fn(-1 - i);
  const times = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** `serve --db`: a batch of N + 20 submissions stored, then each result kept (result + history row, one transaction, NOTIFY). */
async function batchResults(where) {
  const sql = await openMigrated(where);
  const store = batchesOver(sql);
  const id = `b${Math.random().toString(16).slice(2, 18)}`;
  const subs = Array.from({ length: N + 20 }, (_, j) => ({ id: `k${j - 20}`, input: { files: {}, error: null } })); // warm-up keeps k-20…k-1
  await store.create(
    {
      id,
      origin: 'api',
      rubricId: base.rubric.id,
      rubricSha: base.rubric.sha256,
      requestedBy: 'bench',
      createdAt: new Date().toISOString(),
      total: subs.length,
      label: 'bench',
      summarisedAt: null,
    },
    subs,
  );
  const keep = (i) => {
    const r = { ...base, submission: { ...base.submission, id: `k${i}` } };
    return store.complete(id, `k${i}`, r, `${JSON.stringify(r, null, 2)}\n`, 'bench');
  };
  const ms = await perRecord(keep);
  await sql.close();
  return ms;
}

try {
  const rows = [];
  rows.push([
    'file only: atomic report write',
    await perRecord((i) => writeFileAtomic(join(work, `r${i}.json`), `${JSON.stringify(reportN(i), null, 2)}\n`)),
  ]);
  const embedded = await openHistory(join(work, 'pglite'));
  rows.push(['+ embedded Postgres (PGlite) record', await perRecord((i) => embedded.record(reportN(i), 'bench'))]);
  await embedded.close();
  rows.push(['+ serve --db batch result, PGlite', await batchResults(join(work, 'pglite'))]);
  const url = process.env.BENCH_PG_URL ?? null;
  if (!url) rows.push(['Postgres server: set BENCH_PG_URL=postgres://… to measure', NaN]);
  if (url) {
    const pg = await openHistory(url);
    rows.push(['+ Postgres server (loopback) record', await perRecord((i) => pg.record(reportN(i), 'bench'))]);
    await pg.close();
    rows.push(['+ serve --db batch result, Postgres server', await batchResults(url)]);
  }
  console.log(
    `Per graded submission (report ${(JSON.stringify(base).length / 1024).toFixed(0)} KB), median of ${N}, wall time:`,
  );
  for (const [what, ms] of rows)
    console.log(`  ${what.padEnd(44)} ${Number.isNaN(ms) ? '' : `${ms.toFixed(2).padStart(7)} ms`}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
