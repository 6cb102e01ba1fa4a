// Python: what analysis (ruff + tree-sitter metrics, in the worker pool) costs per submission, warm and on a
// thread's first file, beside the usual peer for complexity (one `radon cc` process per submission; no ruff
// binary is obtainable here: ruff is not packaged by Debian and nothing comes from pip), and what a whole
// graded Python submission costs beside its floor (bare `/usr/bin/python3 -m pytest` on the same files,
// unsandboxed) and its peer (pytest + `radon cc` per submission), measured in one run.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandCpu, CPU_SOURCE, medianOf, summary, table } from './cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { createAnalysisPool } = await import(join(ROOT, 'dist', 'adapters', 'analysis', 'pool.js'));
const { LintSpecSchema } = await import(join(ROOT, 'dist', 'domain', 'lint.js'));
const { AnalysisLimitsSchema } = await import(join(ROOT, 'dist', 'domain', 'rubric.js'));
const N = Number(process.env.BENCH_N ?? 10);
const ANALYSE_N = Number(process.env.BENCH_ANALYSE_N ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PY = '/usr/bin/python3';
const RUBRIC = join(ROOT, 'rubrics', 'bank-account');
const SOLUTION = readFileSync(join(ROOT, 'submissions', 'bank-account', 'correct-ana', 'bank_account.py'), 'utf8');

const cpuNow = () => {
  const u = process.cpuUsage(); // every thread of this process, the pool's workers included
  return (u.user + u.system) / 1000;
};

async function analysis() {
  const files = [{ path: 'bank_account.py', content: SOLUTION, sha256: '', bytes: Buffer.byteLength(SOLUTION) }];
  const req = { lint: LintSpecSchema.parse({}), language: 'python', limits: AnalysisLimitsSchema.parse({}) };
  const firsts = [];
  for (let i = 0; i < RUNS; i++) {
    const pool = createAnalysisPool({ threads: 1 });
    const c0 = cpuNow();
    await pool.analyse(files, req);
    firsts.push(cpuNow() - c0);
    await pool.close();
  }
  const pool = createAnalysisPool({ threads: 1 });
  for (let i = 0; i < 50; i++) await pool.analyse(files, req);
  const c0 = cpuNow();
  const t0 = performance.now();
  for (let i = 0; i < ANALYSE_N; i++) await pool.analyse(files, req);
  const warm = { cpu: (cpuNow() - c0) / ANALYSE_N, wall: (performance.now() - t0) / ANALYSE_N };
  await pool.close();
  return { first: [...firsts].sort((a, b) => a - b)[Math.floor(firsts.length / 2)], warm };
}

/** N copies of the correct sample, one folder each (the submission id is the folder). */
function submissions(work, n) {
  const dir = join(work, `subs-${n}`);
  for (let i = 0; i < n; i++) {
    mkdirSync(join(dir, `s${String(i).padStart(3, '0')}`), { recursive: true });
    cpSync(
      join(ROOT, 'submissions', 'bank-account', 'correct-ana', 'bank_account.py'),
      join(dir, `s${String(i).padStart(3, '0')}`, 'bank_account.py'),
    );
  }
  return dir;
}

/** One folder with the solution and the hidden tests, as a bare pytest run sees them. */
function floorDir(work) {
  const dir = join(work, 'floor');
  cpSync(join(RUBRIC, 'tests'), dir, { recursive: true });
  cpSync(join(ROOT, 'submissions', 'bank-account', 'correct-ana', 'bank_account.py'), join(dir, 'bank_account.py'));
  return dir;
}

const work = mkdtempSync(join(tmpdir(), 'evigrade-pybench-'));
try {
  const a = await analysis();
  const radonOk = commandCpu(PY, ['-c', 'import radon'], { allowFail: true }).status === 0;
  const radon = radonOk
    ? medianOf(RUNS, () => commandCpu(PY, ['-m', 'radon', 'cc', '-j', join(RUBRIC, 'reference', 'bank_account.py')]))
    : null;

  const fdir = floorDir(work);
  const pytest = () => commandCpu(PY, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', fdir], { cwd: fdir });
  pytest();
  const floor = medianOf(RUNS, pytest);

  const grade = (n) =>
    commandCpu(
      process.execPath,
      [
        join(ROOT, 'bin', 'evigrade.js'),
        'grade',
        submissions(work, n),
        '--rubric',
        join(RUBRIC, 'rubric.yaml'),
        '--out',
        join(work, `out-${n}`),
        '--no-llm',
        '--force',
        '--concurrency',
        '1',
      ],
      { env: { ...process.env, HF_TOKEN: '' } },
    );
  grade(1); // the Python root file system and collection cache exist before the measured runs
  const small = grade(N);
  const large = grade(3 * N);
  const marginal = { cpu: (large.cpu - small.cpu) / (2 * N), wall: (large.wall - small.wall) / (2 * N) };

  const ms = (x) => `${x.toFixed(1)} ms`;
  process.stdout.write(
    `Python analysis per submission (${SOLUTION.split('\n').length}-line bank_account.py; CPU of every thread of the process; warm: mean of ${ANALYSE_N} after 50; first: median of ${RUNS} fresh pools)\n\n`,
  );
  process.stdout.write(
    `${table(
      ['case', 'CPU / submission', 'wall / submission'],
      [
        ['warm worker pool: ruff (wasm) + tree-sitter metrics', ms(a.warm.cpu), ms(a.warm.wall)],
        ['first file of a new pool: thread start, ruff and grammar load, wasm compile', ms(a.first), ''],
        [
          'peer: one `radon cc` process per submission (complexity only; no ruff binary here)',
          radon ? ms(radon.cpu) : 'radon not installed',
          radon ? ms(radon.wall) : '',
        ],
      ],
    )}\n\n`,
  );
  process.stdout.write(
    `Whole graded Python submission (marginal: (T(${3 * N}) - T(${N})) / ${2 * N}, concurrency 1, --no-llm; CPU from ${CPU_SOURCE})\n\n`,
  );
  process.stdout.write(
    `${table(
      ['case', 'CPU / submission', 'wall / submission'],
      [
        ['floor: bare `python3 -m pytest` on the same files (unsandboxed)', ms(floor.cpu), ms(floor.wall)],
        [
          'peer: pytest + `radon cc` per submission (no ruff binary obtainable)',
          radon ? ms(floor.cpu + radon.cpu) : 'n/a',
          radon ? ms(floor.wall + radon.wall) : '',
        ],
        ['evigrade grade (sandboxed; tests, ruff, metrics, report)', ms(marginal.cpu), ms(marginal.wall)],
      ],
    )}\n\n`,
  );
  summary(
    'Python analysis, warm, CPU per submission',
    ms(a.warm.cpu),
    radon ? `radon cc process ${ms(radon.cpu)}` : 'no peer',
  );
  summary('Python analysis, first file of a thread', ms(a.first), 'paid once per thread, never charged to the file');
  summary(
    'Python graded submission, CPU',
    ms(marginal.cpu),
    `floor pytest ${ms(floor.cpu)}; peer pytest+radon ${radon ? ms(floor.cpu + radon.cpu) : 'n/a'}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
