// Docker over bubblewrap per job, the class run as a whole (issue 36's target: ≤ 150 ms), with Docker's CPU counted in
// full (the command's cgroup, its containers and the engine's daemons, shims and runc: engine-cpu.mjs), for Docker cells
// (`sandbox.docker_cell`, default 16 jobs a container) beside one container per job (EVIGRADE_DOCKER_CELL=1), measured in
// the same run, interleaved run by run: bwrap, cells, per-job. Classes of BENCH_CLASS (24) and BENCH_BIG (240) copies of
// exercism's `say` reference (tests/agreement/say). `BENCH_RUNS` (3) runs of the small class, 1 of the big one.
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandCpu, medianRun, summary, table } from './cpu.mjs';
import { DOCKER_HEADS, dockerRow, engineCpu, signedMs } from './engine-cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'evigrade.js');
const SAY = join(ROOT, 'tests', 'agreement', 'say');
const N = Number(process.env.BENCH_CLASS ?? 24);
const BIG = Number(process.env.BENCH_BIG ?? 240);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CORES = availableParallelism();
const work = mkdtempSync(join(tmpdir(), 'evigrade-cell-bench-'));
const env = { ...process.env, EVIGRADE_CACHE_DIR: join(work, 'cache'), CI: 'true' };

const rubricDir = join(work, 'rubric');
mkdirSync(rubricDir);
writeFileSync(join(rubricDir, 'say.spec.js'), readFileSync(join(SAY, 'say.spec.js')));
writeFileSync(
  join(rubricDir, 'rubric.yaml'),
  'id: say\ntitle: Say\nlanguage: javascript\nstatement: Spell out a number in English.\nentry: ./say\ntests: [say.spec.js]\n',
);
const solution = readFileSync(join(SAY, 'solutions', 'reference.js'), 'utf8');
function classOf(n) {
  const dir = join(work, `class-${n}`);
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `s${String(i).padStart(4, '0')}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'say.js'), solution);
  }
  return dir;
}
const args = (dir, sandbox) => [
  'grade',
  dir,
  '--rubric',
  join(rubricDir, 'rubric.yaml'),
  '--out',
  `${dir}-out`,
  '--no-llm',
  '--sandbox',
  sandbox,
];
const grade = (dir, sandbox, extraEnv = {}) =>
  commandCpu(process.execPath, [BIN, ...args(dir, sandbox), '--concurrency', String(CORES), '--force'], {
    env: { ...env, ...extraEnv },
    timeoutMs: 900_000,
  });
/** A Docker class: the command's CPU plus its containers' and the engine's. */
async function gradeDocker(dir, cell) {
  const counting = await engineCpu();
  let run;
  let engine;
  try {
    run = grade(dir, 'docker', { EVIGRADE_DOCKER_CELL: String(cell) });
  } finally {
    engine = await counting.stop();
  }
  // Every submission graded with all 13 tests passing, or the figure is not of the same work.
  const passed = readdirSync(`${dir}-out`)
    .filter((f) => /^s\d+\.json$/.test(f))
    .map(
      (f) => JSON.parse(readFileSync(join(`${dir}-out`, f), 'utf8')).tests.filter((t) => t.status === 'passed').length,
    );
  if (passed.length !== Number(dir.split('-').pop()) || passed.some((k) => k !== 13))
    throw new Error(`docker (cell ${cell}): not every submission passed its 13 tests: ${passed.join(',')}`);
  return { ...run, cpu: run.cpu + engine.total, own: run.cpu, engine: engine.total };
}
const CELL = Number(process.env.EVIGRADE_DOCKER_CELL_BENCH ?? 16);

async function measure(n, runs) {
  const dir = classOf(n);
  grade(dir, 'bwrap'); // caches warm
  await gradeDocker(dir, CELL); // images made, engine warm
  const [b, c, p] = [[], [], []];
  const loads = [];
  for (let i = 0; i < runs; i++) {
    loads.push(loadavg()[0]);
    b.push(grade(dir, 'bwrap'));
    c.push(await gradeDocker(dir, CELL));
    p.push(await gradeDocker(dir, 1));
  }
  loads.push(loadavg()[0]);
  const med = (xs) => ({
    ...medianRun(xs),
    own: medianRun(xs.map((x) => ({ cpu: x.own, wall: 0 }))).cpu,
    engine: medianRun(xs.map((x) => ({ cpu: x.engine, wall: 0 }))).cpu,
  });
  return { n, bwrap: medianRun(b), cell: med(c), perJob: med(p), loads };
}

const started = performance.now();
const results = [await measure(N, RUNS), await measure(BIG, 1)];
const rows = [];
for (const r of results) {
  const row = (label, d) => dockerRow(`class of ${r.n}: ${label}`, d, r.bwrap, r.n);
  rows.push(
    row('bwrap', r.bwrap),
    row(`docker cells (${CELL} jobs a container)`, r.cell),
    row('docker, a container per job', r.perJob),
  );
}
console.log(
  `Docker beside bwrap per job, the class run as a whole (exercism's say, --no-llm, concurrency ${CORES}; class of ${N}: median of ${RUNS}, class of ${BIG}: 1 run; interleaved bwrap, cells, per-job)\n`,
);
console.log(table(DOCKER_HEADS, rows));
console.log(
  `\nload average (1 min) at each round: ${results.map((r) => `${r.n}: ${r.loads.map((l) => l.toFixed(1)).join(', ')}`).join('; ')}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
// One line per class for `npm run bench`'s table: both Docker modes over bwrap, measured in the same rounds.
for (const r of results) {
  const over = (d) => `wall ${signedMs((d.wall - r.bwrap.wall) / r.n)}, CPU ${signedMs((d.cpu - r.bwrap.cpu) / r.n)}`;
  summary(
    `Docker over bwrap per job, class of ${r.n} \`say\` run as a whole (engine CPU counted)`,
    `cells: ${over(r.cell)}`,
    `a container per job: ${over(r.perJob)}; target ≤ 150 ms`,
  );
}
rmSync(work, { recursive: true, force: true });
