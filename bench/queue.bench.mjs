// Distributed grading, in one run on this machine:
//  1. batch throughput: in-process (`grade --concurrency 2`) vs. `grade --queue` with one worker
//     (concurrency 2) and with two worker processes (concurrency 1 each) — the same 2 sandbox slots;
//  2. queue overhead per job: one job at a time, in-process vs. through Redis and a worker, beside the
//     bare BullMQ round trip of the same payload with a no-op processor (the queue's own floor).
// Needs redis-server (Debian package) and an isolating sandbox backend.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedis } from './services.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const D = join(ROOT, 'dist');
const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const N = Number(process.env.BENCH_N ?? 40);
const SEQ = Number(process.env.BENCH_SEQ ?? 15);
const SANDBOX = process.env.BENCH_SANDBOX ?? 'bwrap';
const { Queue, QueueEvents, Worker } = await import('bullmq');
const { Redis } = await import('ioredis');
const { pino } = await import('pino');
const { loadRubric } = await import(join(D, 'adapters', 'fs', 'rubric-loader.js'));
const { openSandbox } = await import(join(D, 'adapters', 'sandbox', 'registry.js'));
const { createAnalysisPool } = await import(join(D, 'adapters', 'analysis', 'pool.js'));
const { createLocalQueue } = await import(join(D, 'queue', 'local.js'));
const { openRedisQueue, gradeJobData } = await import(join(D, 'queue', 'redis.js'));
const { ConfigSchema } = await import(join(D, 'domain', 'config.js'));
const { canonicalJson, sha256 } = await import(join(D, 'util', 'hash.js'));

const redis = await startRedis();
const { url } = redis;

// A class of N: mostly correct, some partial, some broken, so lint and tests do real work.
const subs = mkdtempSync(join(tmpdir(), 'evigrade-bench-q-'));
const variants = [
  'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n',
  'module.exports = { isLeap: (y) => y % 4 === 0 };\n',
  'export function isLeap(year) {\n  if (year % 400 === 0) return true;\n  if (year % 100 === 0) return false;\n  return year % 4 === 0;\n}\n',
  'export const isLeap = (y) => {{ ;\n',
];
for (let i = 0; i < N; i++)
  writeFileSync(join(subs, `s${String(i).padStart(3, '0')}.js`), `// student ${i}\n${variants[i % variants.length]}`);

function run(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`evigrade ${args[0]} exited ${code}: ${err.slice(-500)}`)),
    );
  });
}
/** A worker process; `p.gradeMs` collects the time each grade job took inside it (from its log). */
function startWorker(name, concurrency) {
  const p = spawn(
    process.execPath,
    [BIN, 'worker', '--queue', url, '--concurrency', String(concurrency), '--sandbox', SANDBOX],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, EVIGRADE_CONFIG: config(name) } },
  );
  p.gradeMs = [];
  return new Promise((resolve) => {
    let buf = '';
    p.stderr.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines) {
        if (l.includes('"worker ready"')) resolve(p);
        if (l.includes('"job done"') && l.includes('"kind":"grade"')) p.gradeMs.push(JSON.parse(l).ms);
      }
    });
  });
}
const scratch = []; // the config files' folders and the empty class: removed at the end, as the class is
function config(name) {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-bench-cfg-'));
  scratch.push(dir);
  const f = join(dir, 'c.yaml');
  writeFileSync(f, `queue:\n  name: ${name}\n`);
  return f;
}
const stop = (p) =>
  new Promise((resolve) => {
    p.on('exit', resolve);
    p.kill('SIGTERM');
  });

async function batch(label, queueName, workers, dir = subs) {
  const out = mkdtempSync(join(tmpdir(), 'evigrade-bench-q-out-'));
  const procs = [];
  for (const c of workers) procs.push(await startWorker(queueName, c));
  const args = ['grade', dir, '--rubric', LEAP, '--out', out, '--no-llm'];
  const t0 = performance.now();
  if (workers.length) await run([...args, '--queue', url, '--config', config(queueName)]);
  else await run([...args, '--sandbox', SANDBOX, '--concurrency', '2']);
  const s = (performance.now() - t0) / 1000;
  await Promise.all(procs.map(stop));
  rmSync(out, { recursive: true, force: true });
  return [label, s];
}

// Start-up alone: one submission that intake rejects (an empty folder is refused before any sandbox starts),
// so the sandbox opens and the tests are collected, but no job runs.
const empty = mkdtempSync(join(tmpdir(), 'evigrade-bench-q-empty-'));
scratch.push(empty);
symlinkSync('/etc/passwd', join(empty, 'rejected.js'));
const startup = (await batch('start-up only', null, [], empty))[1];
const startupQueued = (await batch('start-up only', 'b0', [1], empty))[1];
const rows = [
  await batch('in-process, 2 sandbox slots', null, []),
  await batch('Redis, 1 worker × 2 slots', 'b1', [2]),
  await batch('Redis, 2 workers × 1 slot', 'b2', [1, 1]),
];
console.log(
  `Batch throughput (N=${N} leap submissions, ${SANDBOX}, --no-llm, wall clock incl. start-up and test collection)\n`,
);
console.log(
  '| path | wall | submissions/s | vs in-process | after start-up: submissions/s | vs in-process |\n|---|---|---|---|---|---|',
);
const steady = rows.map(([, s], i) => N / (s - (i === 0 ? startup : startupQueued)));
for (const [i, [label, s]] of rows.entries()) {
  console.log(
    `| ${label} | ${s.toFixed(1)} s | ${(N / s).toFixed(2)} | ${(rows[0][1] / s).toFixed(2)}× | ${steady[i].toFixed(2)} | ${(steady[i] / steady[0]).toFixed(2)}× |`,
  );
}
console.log(`\nStart-up (one submission rejected at intake): in-process ${startup.toFixed(1)} s (sandbox, lint threads, test collection); with --queue
${startupQueued.toFixed(1)} s (connect, collection by a worker). Workers are long-running; their own start-up is in no row.`);

// Per-job overhead: one job at a time, same submission, a fresh scope each time (no result reuse).
const silent = pino({ level: 'silent' });
const rubric = await loadRubric(LEAP);
const sub = {
  id: 'one',
  files: [
    { path: 'leap.js', content: variants[0], sha256: sha256(variants[0]), bytes: Buffer.byteLength(variants[0]) },
  ],
  ignored: [],
};
sub.sha256 = sha256(canonicalJson(sub.files.map((f) => [f.path, f.sha256])));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function sequential(queue, expected) {
  const times = [];
  for (let i = -2; i < SEQ; i++) {
    const t0 = performance.now();
    await queue.grade({ scope: `bench-${i}-${Math.random()}`, rubric, expected, submission: sub, interactive: true });
    times.push(performance.now() - t0);
  }
  return times;
}
const sandbox = await openSandbox(SANDBOX, join(ROOT, 'sandbox', 'dist'));
const analysis = createAnalysisPool({ threads: 1 });
const local = createLocalQueue({ sandbox, analysis, now: () => new Date(), tools: {}, maxResumes: 2 }, 1);
const expected = await local.collect(rubric);
const localMs = median((await sequential(local, expected)).slice(2));
sandbox.close();
await analysis.close();

const w = await startWorker('seq', 1);
const remote = await openRedisQueue({ ...ConfigSchema.parse({}).queue, url, name: 'seq' }, silent);
const remoteTimes = await sequential(remote, expected);
await remote.close();
await stop(w);
const remoteMs = median(remoteTimes.slice(2));
// The queue's cost for each job: what the submitter waited, minus what the worker spent grading it.
const overheadMs = median(remoteTimes.map((t, i) => t - w.gradeMs[i]).slice(2));

// The queue's own floor: the same job data through BullMQ to a processor that returns at once.
const conn = new Redis(url, { maxRetriesPerRequest: null });
const q = new Queue('bare', { connection: conn });
const events = new QueueEvents('bare', { connection: conn });
const worker = new Worker('bare', async () => ({ ok: true }), { connection: conn, concurrency: 1 });
await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
const data = gradeJobData({ scope: 'bare', rubric, expected, submission: sub, interactive: true }, 1 << 22);
const bare = [];
for (let i = -5; i < SEQ * 4; i++) {
  const t0 = performance.now();
  await (await q.add('grade', data)).waitUntilFinished(events);
  if (i >= 0) bare.push(performance.now() - t0);
}
await worker.close();
await events.close();
await q.close();
conn.disconnect();

console.log(`\nOne job at a time (median of ${SEQ}, same submission, ${SANDBOX})\n`);
console.log('| path | per job |\n|---|---|');
console.log(`| bare BullMQ round trip, no-op processor (the queue's floor) | ${median(bare).toFixed(1)} ms |`);
console.log(`| in-process grade | ${localMs.toFixed(0)} ms |`);
console.log(`| through Redis and one worker | ${remoteMs.toFixed(0)} ms |`);
console.log(
  `\nqueue overhead per job: ${overheadMs.toFixed(1)} ms (submitter's wait minus the worker's own grading time; BullMQ's bare round trip ${median(bare).toFixed(1)} ms)`,
);
console.log(
  `end to end, one job at a time: ${(remoteMs - localMs).toFixed(0)} ms vs in-process (the worker is a separate process, so the submitter's own work overlaps)`,
);
await redis.stop();
for (const d of [subs, ...scratch]) rmSync(d, { recursive: true, force: true });
process.exit(0);
