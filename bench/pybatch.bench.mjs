// What a teacher pays for a Python class, start-up included (issue 36), measured side by side in one run:
//   floor    — one bare `python3 -m unittest` per submission (the solution and the test file in one folder,
//              unsandboxed): what running the tests at all costs;
//   peer     — one `python3 -m pytest` per submission (the usual Python autograder);
//   evigrade — the whole `evigrade grade` command over the class (bwrap, --no-llm), start-up included; with
//              bwrap, with the Python fork server off and on (EVIGRADE_PYTHON_FORK_SERVER=0/1; `BENCH_FORK=0` skips the
//              latter, `BENCH_FORK=only` the former).
// The class: `BENCH_CLASS` (24) and `BENCH_BIG` (240) copies of the `say` reference (bench/python-say: its
// unittest file of 20 tests). The floor and the peer are sampled before and after every graded class (this VM's
// speed drifts within minutes) and read as the median of all samples. `BENCH_BASE_BIN` grades the same classes
// with another build (an older checkout's bin/evigrade.js), interleaved run by run with this one, for a before and
// after measured in the same run (with bwrap, that build with the fork server off and on too). CPU from a cpuacct cgroup around each command (bench/cpu.mjs).
import { availableParallelism, tmpdir } from 'node:os';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CPU_SOURCE, commandCpu as cpuOf, medianRun, summary, table } from './cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAY = join(ROOT, 'bench', 'python-say');
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'evigrade.js');
const BASE = process.env.BENCH_BASE_BIN;
const N = Number(process.env.BENCH_CLASS ?? 24);
const BIG = Number(process.env.BENCH_BIG ?? 240);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BIG_RUNS = Number(process.env.BENCH_BIG_RUNS ?? Math.min(3, RUNS));
const SANDBOX = process.env.BENCH_SANDBOX ?? 'bwrap';
const PY = '/usr/bin/python3';
const CORES = availableParallelism();
const work = mkdtempSync(join(tmpdir(), 'evigrade-pybatch-bench-'));

function classOf(n) {
  const dir = join(work, `class-${n}`);
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `s${String(i).padStart(4, '0')}`);
    mkdirSync(sub, { recursive: true });
    cpSync(join(SAY, 'reference', 'say.py'), join(sub, 'say.py'));
  }
  return dir;
}

/** The solution beside its test file, as a bare run sees them. */
const bare = join(work, 'bare');
mkdirSync(bare);
cpSync(join(SAY, 'reference', 'say.py'), join(bare, 'say.py'));
cpSync(join(SAY, 'tests', 'say_test.py'), join(bare, 'say_test.py'));
const floorRun = () => cpuOf(PY, ['-m', 'unittest', '-q', 'say_test'], { cwd: bare });
const peerRun = () => cpuOf(PY, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'say_test.py'], { cwd: bare });

/** One build's cache folder, so neither build reads the other's caches; `extra`: environment of that row. */
const grade =
  (bin, cache, extra = {}) =>
  (dir) =>
    cpuOf(
      process.execPath,
      [
        bin,
        'grade',
        dir,
        '--rubric',
        join(SAY, 'rubric.yaml'),
        '--out',
        `${dir}-out`,
        '--no-llm',
        '--sandbox',
        SANDBOX,
        '--concurrency',
        String(CORES),
        '--force',
      ],
      {
        env: { ...process.env, EVIGRADE_CACHE_DIR: join(work, cache), CI: 'true', HF_TOKEN: '', ...extra },
        timeoutMs: 600_000,
      },
    );
// The fork server (sandbox.python_fork_server, bwrap only) beside the default path, same build, caches of its own.
// `BENCH_FORK=only`: the fork server's rows alone (the default path since 2026-11-27), for a shorter paired run.
const FORK = process.env.BENCH_FORK !== '0' && SANDBOX === 'bwrap';
const UNFORKED = process.env.BENCH_FORK !== 'only' || !FORK;
const builds = [
  ...(UNFORKED ? [['this build, fork server off', grade(BIN, 'cache', { EVIGRADE_PYTHON_FORK_SERVER: '0' })]] : []),
  ...(FORK
    ? [['this build (default: fork server)', grade(BIN, 'cache-fork', { EVIGRADE_PYTHON_FORK_SERVER: '1' })]]
    : []),
  ...(BASE && UNFORKED ? [['base build', grade(BASE, 'cache-base', { EVIGRADE_PYTHON_FORK_SERVER: '0' })]] : []),
  ...(BASE && FORK
    ? [['base build, fork server', grade(BASE, 'cache-base-fork', { EVIGRADE_PYTHON_FORK_SERVER: '1' })]]
    : []),
];

const started = performance.now();
try {
  const check = floorRun();
  if (!/OK/.test(check.stderr)) throw new Error(`the floor did not pass: ${check.stderr.slice(-300)}`);
  const floors = [];
  const peers = [];
  const sample = () => {
    floors.push(floorRun());
    peers.push(peerRun());
  };
  for (let i = 0; i < 3; i++) sample();
  const small = classOf(N);
  const big = classOf(BIG);
  const runs = new Map(builds.map(([name]) => [name, { cold: null, small: [], big: [] }]));
  // First run of the rubric per build: its caches are made; every later run is warm.
  for (const [name, run] of builds) runs.get(name).cold = run(small);
  for (let i = 0; i < RUNS; i++) {
    for (const [name, run] of builds) {
      sample();
      runs.get(name).small.push(run(small));
    }
  }
  for (let i = 0; i < BIG_RUNS; i++) {
    for (const [name, run] of builds) {
      sample();
      runs.get(name).big.push(run(big));
    }
  }
  sample();
  const floor = medianRun(floors);
  const peer = medianRun(peers);
  const ms = (x) => `${x.toFixed(0)} ms`;
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  const row = (label, m, n = 1) => [
    label,
    ms(m.cpu / n),
    ms(m.wall / n),
    x(m.cpu / n, floor.cpu),
    x(peer.cpu, m.cpu / n),
  ];
  const rows = [
    row('floor: one `python3 -m unittest` per submission, unsandboxed', floor),
    row('peer: one `python3 -m pytest` per submission', peer),
  ];
  for (const [name] of builds) {
    const r = runs.get(name);
    rows.push(row(`${name}: evigrade grade, class of ${N}, first run of the rubric`, r.cold, N));
    rows.push(row(`${name}: evigrade grade, class of ${N}, warm (median of ${r.small.length})`, medianRun(r.small), N));
    rows.push(row(`${name}: evigrade grade, class of ${BIG}, warm (median of ${r.big.length})`, medianRun(r.big), BIG));
  }
  console.log(
    `Python class cost, \`say\` (20 unittest tests), sandbox ${SANDBOX}, concurrency ${CORES}, --no-llm; floor and peer: median of ${floors.length} samples taken between the graded classes\n`,
  );
  console.log(table(['per submission', 'CPU', 'wall', 'CPU vs floor', 'peer CPU ÷ this'], rows));
  const spread = (xs) => `${ms(Math.min(...xs.map((r) => r.cpu)))}–${ms(Math.max(...xs.map((r) => r.cpu)))}`;
  console.log(`\nfloor samples ${spread(floors)}; peer samples ${spread(peers)}`);
  for (const [name] of builds) {
    const r = runs.get(name);
    const per = (xs, n) => xs.map((v) => ({ cpu: v.cpu / n }));
    console.log(
      `${name}: class of ${N} ${spread(per(r.small, N))} per submission; class of ${BIG} ${spread(per(r.big, BIG))}`,
    );
  }
  console.log(
    `\nCPU from ${CPU_SOURCE}; ${CORES} cores, node ${process.version}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const [name, label] of [
    ['this build, fork server off', ', fork server off (as unshare and Docker run)'],
    ['this build (default: fork server)', ' (the default: fork server)'],
  ]) {
    const mine = runs.get(name);
    if (!mine) continue;
    for (const [n, xs] of [
      [N, mine.small],
      [BIG, mine.big],
    ]) {
      const m = medianRun(xs).cpu / n;
      summary(
        `Python class of ${n} \`say\`${label}, CPU per submission, whole command`,
        `${ms(m)} (${x(m, floor.cpu)} floor; peer pytest ÷ this ${x(peer.cpu, m)})`,
        `floor unittest ${ms(floor.cpu)}; peer pytest ${ms(peer.cpu)}; target ≤ 2× floor, ≥ 1.5× cheaper than pytest`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
