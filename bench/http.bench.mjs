// autocannon against POST /grade (deterministic path) on a real `evigrade serve`:
// throughput, p50/p99 latency and non-2xx at concurrency 1, 2×cores and 10×cores,
// RSS before and after 10,000 requests, beside the CLI batch rate, in one run.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'bench-key-0123456789abcdef';
const CORES = availableParallelism();
const DURATION = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const TOTAL = Number(process.env.BENCH_HTTP_REQUESTS ?? 10_000);
const SOLUTION = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function startServer(data) {
  // The per-key rate limit would turn the load test into a rate-limit test: lifted here.
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'config.yaml'), 'http:\n  rate_per_minute: 1000000\n');
  const proc = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'evigrade.js'),
      'serve',
      '--port',
      '0',
      '--rubrics',
      join(ROOT, 'rubrics'),
      '--data',
      data,
      '--concurrency',
      String(CORES),
      '--no-llm',
      '--config',
      join(data, 'config.yaml'),
    ],
    {
      env: { ...process.env, EVIGRADE_API_KEYS: KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let log = '';
    proc.stderr.on('data', (c) => {
      log = (log + c.toString()).slice(-20_000);
      const m = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log);
      if (m) resolve({ proc, url: `http://127.0.0.1:${m[1]}` });
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
  });
}

const cannon = (url, connections, opts) =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/grade`,
        method: 'POST',
        connections,
        ...opts,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ rubric: 'leap', files: { 'leap.js': SOLUTION } }),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });

function cliRate(work) {
  const subs = join(work, 'subs');
  for (let i = 0; i < 40; i++) {
    mkdirSync(join(subs, `s${i}`), { recursive: true });
    writeFileSync(join(subs, `s${i}`, 'leap.js'), SOLUTION);
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      [
        join(ROOT, 'bin', 'evigrade.js'),
        'grade',
        subs,
        '--rubric',
        join(ROOT, 'rubrics', 'leap', 'rubric.yaml'),
        '--out',
        join(work, 'out'),
        '--no-llm',
        '--concurrency',
        String(CORES),
      ],
      (err) => (err ? reject(err) : resolve(40 / ((performance.now() - t0) / 1000))),
    );
  });
}

const work = mkdtempSync(join(tmpdir(), 'evigrade-httpbench-'));
const { proc, url } = await startServer(join(work, 'data'));
try {
  const cli = await cliRate(work);
  const rows = [];
  for (const c of [1, 2 * CORES, 10 * CORES]) {
    const r = await cannon(url, c, { duration: DURATION });
    rows.push([c, r.requests.average, r['2xx'] / DURATION, r.latency.p50, r.latency.p99, r.non2xx]);
  }
  const rss0 = rssMb(proc.pid);
  const big = await cannon(url, 10 * CORES, { amount: TOTAL });
  await new Promise((r) => setTimeout(r, 2000));
  const rss1 = rssMb(proc.pid);
  console.log(`POST /grade (deterministic), server with ${CORES} sandbox slots; ${DURATION} s per row\n`);
  console.log('| connections | req/s | graded (2xx)/s | p50 | p99 | non-2xx |\n|---|---|---|---|---|---|');
  for (const [c, rps, ok, p50, p99, non] of rows)
    console.log(`| ${c} | ${rps.toFixed(1)} | ${ok.toFixed(1)} | ${p50} ms | ${p99} ms | ${non} |`);
  const sat = Math.max(...rows.map((r) => r[2]));
  console.log(`\nCLI batch (40 submissions, concurrency ${CORES}, start-up included): ${cli.toFixed(1)} submissions/s`);
  console.log(`HTTP graded/s at saturation / CLI rate: ${(sat / cli).toFixed(2)} (aim: at least 0.8)`);
  console.log(
    `${TOTAL} requests at ${10 * CORES} connections: ${big['2xx']} graded, ${big.non2xx} non-2xx (503 = prompt refusal), errors ${big.errors}`,
  );
  console.log(
    `server RSS: ${rss0.toFixed(1)} MB before, ${rss1.toFixed(1)} MB after (growth ${(rss1 - rss0).toFixed(1)} MB, aim < 20 MB)`,
  );
} finally {
  proc.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
