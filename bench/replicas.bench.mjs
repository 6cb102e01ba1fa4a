// `serve` scaled out: POST /grade throughput and one HTTP batch's wall time with two replicas against one, both
// sharing one Redis (one `evigrade worker` with a slot per core) and one Postgres (`--db`, Debian's, started here
// as the postgres user). The replicas grade nothing themselves: what they add is intake, queueing, the store and
// HTTP. `BENCH_HTTP_SECONDS` (8) per row, `BENCH_N` (24) submissions per batch.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { summary } from './cpu.mjs';
import { startPostgres, startRedis } from './services.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'evigrade.js');
const KEY = 'bench-key-0123456789abcdef';
const CORES = availableParallelism();
const DURATION = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
const N = Number(process.env.BENCH_N ?? 24);
const SANDBOX = process.env.BENCH_SANDBOX ?? 'bwrap';
const SOLUTION = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const pg = await startPostgres();
if (!pg) {
  console.log('replicas: needs root and Debian postgresql (not measured)');
  process.exit(0);
}
const redis = await startRedis();
const work = mkdtempSync(join(tmpdir(), 'evigrade-bench-rep-'));
const config = join(work, 'config.yaml');
// The per-key rate limit would turn the load test into a rate-limit test: lifted here.
writeFileSync(config, 'http:\n  rate_per_minute: 1000000\n');
cpSync(join(ROOT, 'rubrics', 'leap'), join(work, 'rubrics', 'leap'), { recursive: true });

/** A process, resolved once it logs `msg` (with that log line). */
function start(args, msg) {
  const p = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, EVIGRADE_API_KEYS: KEY },
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    p.stderr.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.includes(`"msg":"${msg}"`));
      if (line) resolve({ p, line: JSON.parse(line) });
    });
    p.on('exit', (code) => reject(new Error(`evigrade ${args[0]} exited ${code}: ${buf.slice(-800)}`)));
  });
}
const stop = (p) =>
  new Promise((resolve) => {
    if (p.exitCode !== null) return resolve();
    p.on('exit', resolve);
    p.kill('SIGTERM');
  });
const replica = async (i) => {
  const { p, line } = await start(
    [
      'serve',
      '--port',
      '0',
      '--rubrics',
      join(work, 'rubrics'),
      '--data',
      join(work, `data${i}`),
      '--queue',
      redis.url,
      '--db',
      pg.url,
      '--config',
      config,
      '--no-llm',
    ],
    'listening',
  );
  return { p, url: `http://127.0.0.1:${line.port}` };
};

const cannon = (url, connections) =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/grade`,
        method: 'POST',
        connections,
        duration: DURATION,
        headers,
        body: JSON.stringify({ rubric: 'leap', files: { 'leap.js': SOLUTION } }),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });

/** POST /batches to the first replica, then wait for `done` on the last one's status. */
async function batch(urls, tag) {
  const submissions = Array.from({ length: N }, (_, i) => ({
    id: `s${i}`,
    files: { 'leap.js': `// ${tag} ${i}\n${SOLUTION}` },
  }));
  const t0 = performance.now();
  const { id } = await (
    await fetch(`${urls[0]}/batches`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ rubric: 'leap', submissions }),
    })
  ).json();
  for (;;) {
    const st = await (await fetch(`${urls.at(-1)}/batches/${id}`, { headers })).json();
    if (st.state === 'done') return (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const procs = [];
try {
  procs.push(
    (
      await start(
        ['worker', '--queue', redis.url, '--concurrency', String(CORES), '--sandbox', SANDBOX],
        'worker ready',
      )
    ).p,
  );
  const a = await replica(0);
  procs.push(a.p);
  await cannon(a.url, 1); // warm: rubric collected, connections open
  const one = await cannon(a.url, 2 * CORES);
  const batchOne = await batch([a.url], 'one');
  const b = await replica(1);
  procs.push(b.p);
  await cannon(b.url, 1);
  const [ra, rb] = await Promise.all([cannon(a.url, CORES), cannon(b.url, CORES)]);
  const batchTwo = await batch([a.url, b.url], 'two');

  const graded = (...rs) => rs.reduce((s, r) => s + r['2xx'], 0) / DURATION;
  console.log(
    `POST /grade (deterministic) through ${CORES * 2} connections for ${DURATION} s, one worker × ${CORES} ${SANDBOX} slots, Redis, Postgres\n`,
  );
  console.log('| serve replicas | graded/s | p50 | p99 | non-2xx |\n|---|---|---|---|---|');
  console.log(`| 1 | ${graded(one).toFixed(1)} | ${one.latency.p50} ms | ${one.latency.p99} ms | ${one.non2xx} |`);
  console.log(
    `| 2 (half the connections each) | ${graded(ra, rb).toFixed(1)} | ${Math.max(ra.latency.p50, rb.latency.p50)} ms | ${Math.max(ra.latency.p99, rb.latency.p99)} ms | ${ra.non2xx + rb.non2xx} |`,
  );
  console.log(
    `\nHTTP batch of ${N} (POST to the first replica, followed on the last): one replica ${batchOne.toFixed(1)} s (${(N / batchOne).toFixed(1)}/s), two replicas ${batchTwo.toFixed(1)} s (${(N / batchTwo).toFixed(1)}/s)`,
  );
  summary('POST /grade graded/s, 2 replicas', graded(ra, rb).toFixed(1), `1 replica ${graded(one).toFixed(1)}`);
} finally {
  for (const p of procs.reverse()) await stop(p);
  await redis.stop();
  await pg.stop();
  rmSync(work, { recursive: true, force: true });
}
