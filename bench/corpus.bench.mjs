// What a teacher pays on every real exercise we hold, not only `say`: for each exercise of the Jest-agreement corpus
// (tests/agreement: exercism's test files and recorded submissions, passing and failing, ES modules and CommonJS), a
// class of BENCH_CLASS (24) made of its recorded submissions in turn, graded by the whole `evigrade grade` command
// (bwrap, --no-llm, start-up included, warm caches: the median of BENCH_RUNS runs), beside
//   floor — bare `node` + `expect` + the submission running the same tests (bench/floor-runner.mjs), per submission;
//   peer  — one `jest` 29 process per submission (exercism's Babel set-up, warm transform cache).
// Floor and peer are each submission's median over BENCH_RUNS, averaged as the class mixes them. CPU from a cpuacct
// cgroup around each command (bench/cpu.mjs). BENCH_EXERCISES (comma-separated) limits the exercises.
import { availableParallelism, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CPU_SOURCE, commandCpu as cpuOf, medianOf, summary, table } from './cpu.mjs';
import { jestArgs } from './jest-peer.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'evigrade.js');
const CORPUS = join(ROOT, 'tests', 'agreement');
const FLOOR = join(ROOT, 'bench', 'floor-runner.mjs');
const N = Number(process.env.BENCH_CLASS ?? 24);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CORES = availableParallelism();
const require = createRequire(join(ROOT, 'package.json'));
const work = mkdtempSync(join(tmpdir(), 'evigrade-corpus-bench-'));
const env = { ...process.env, EVIGRADE_CACHE_DIR: join(work, 'cache'), CI: 'true' };

const only = (process.env.BENCH_EXERCISES ?? '').split(',').filter(Boolean);
const EXERCISES = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && (only.length === 0 || only.includes(d.name)))
  .map((d) => d.name)
  .sort();

const isCommonJs = (text) => /\bmodule\.exports\b|\bexports\.\w+\s*=/.test(text);

/** One exercise: its test file, its recorded submissions (name, text), and a rubric for it. */
function exercise(slug) {
  const spec = readFileSync(join(CORPUS, slug, `${slug}.spec.js`), 'utf8');
  const solutions = readdirSync(join(CORPUS, slug, 'solutions'))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => [basename(f, '.js'), readFileSync(join(CORPUS, slug, 'solutions', f), 'utf8')]);
  const dir = join(work, slug, 'rubric');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${slug}.spec.js`), spec);
  writeFileSync(
    join(dir, 'rubric.yaml'),
    `id: ${slug}\ntitle: ${slug}\nlanguage: javascript\nstatement: exercism's ${slug}.\nentry: ./${slug}\ntests: [${slug}.spec.js]\n`,
  );
  return { slug, spec, solutions, rubric: join(dir, 'rubric.yaml') };
}

// The floor: the test file as an ES module beside the submission, its one import of the solution made explicit for
// Node's resolver (a CommonJS submission in a .cjs file, which Node's ES-module loader imports with its exports).
function floorArgs({ slug, spec }, [name, text]) {
  const dir = join(work, slug, `floor-${name}`);
  mkdirSync(dir, { recursive: true });
  const file = isCommonJs(text) ? `${slug}.cjs` : `${slug}.js`;
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, `${slug}.spec.js`), spec.replaceAll(`from './${slug}'`, `from './${file}'`));
  return [FLOOR, join(dir, `${slug}.spec.js`)];
}

function jestPeer({ slug, spec }, [name, text]) {
  const dir = join(work, slug, `jest-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}');
  writeFileSync(
    join(dir, 'babel.config.cjs'),
    `module.exports = { presets: [[${JSON.stringify(require.resolve('@babel/preset-env'))}, { targets: { node: 'current' } }]] };\n`,
  );
  writeFileSync(join(dir, `${slug}.js`), text);
  writeFileSync(join(dir, `${slug}.spec.js`), spec);
  return jestArgs(dir, join(work, 'jest-cache'));
}

function classOf({ slug, solutions }) {
  const dir = join(work, slug, `class-${N}`);
  for (let i = 0; i < N; i++) {
    const sub = join(dir, `s${String(i).padStart(4, '0')}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `${slug}.js`), solutions[i % solutions.length][1]);
  }
  return dir;
}

const grade = (ex, dir) =>
  cpuOf(
    process.execPath,
    [BIN, 'grade', dir, '--rubric', ex.rubric, '--out', `${dir}-out`, '--no-llm', '--sandbox', 'bwrap'].concat([
      '--concurrency',
      String(CORES),
      '--force',
    ]),
    { env, timeoutMs: 240_000 },
  );

/**
 * Per submission of a class that cycles through `solutions`: each one's median CPU over RUNS of `node <argsOf(s)>`
 * (its files laid out once), weighted as the class has it (with `warm`, after one run left out).
 */
function classMean(solutions, argsOf, warm = false) {
  const each = solutions.map((s) => {
    const args = argsOf(s);
    if (warm) cpuOf(process.execPath, args, { allowFail: true });
    return medianOf(RUNS, () => cpuOf(process.execPath, args, { allowFail: true })).cpu;
  });
  let sum = 0;
  for (let i = 0; i < N; i++) sum += each[i % each.length];
  return sum / N;
}

const started = performance.now();
try {
  const rows = [];
  const totals = { floor: 0, jest: 0, evigrade: 0 };
  let worst = null;
  for (const slug of EXERCISES) {
    const ex = exercise(slug);
    const tests = cpuOf(
      process.execPath,
      floorArgs(ex, ex.solutions.find((s) => s[0] === 'reference') ?? ex.solutions[0]),
    )
      .stdout.trim()
      .split('/')[1];
    const floor = classMean(ex.solutions, (s) => floorArgs(ex, s));
    // Jest's transform cache warm first, as a real grader has it.
    const jest = classMean(ex.solutions, (s) => jestPeer(ex, s), true);
    const dir = classOf(ex);
    grade(ex, dir); // the rubric's first run: its collection and caches made
    const ours = medianOf(RUNS, () => grade(ex, dir)).cpu / N;
    const ratio = ours / floor;
    if (!worst || ratio > worst.ratio) worst = { slug, ratio };
    totals.floor += floor;
    totals.jest += jest;
    totals.evigrade += ours;
    rows.push([
      slug,
      `${tests} tests, ${ex.solutions.length} submissions`,
      `${floor.toFixed(0)} ms`,
      `${jest.toFixed(0)} ms`,
      `${ours.toFixed(0)} ms`,
      `${ratio.toFixed(2)}×`,
      `${(jest / ours).toFixed(1)}×`,
    ]);
  }
  const k = EXERCISES.length;
  rows.push([
    `**all ${k}** (mean per submission)`,
    '',
    `${(totals.floor / k).toFixed(0)} ms`,
    `${(totals.jest / k).toFixed(0)} ms`,
    `${(totals.evigrade / k).toFixed(0)} ms`,
    `${(totals.evigrade / totals.floor).toFixed(2)}×`,
    `${(totals.jest / totals.evigrade).toFixed(1)}×`,
  ]);
  console.log(
    `Whole-batch cost per submission on every exercise of the Jest-agreement corpus: a class of ${N} of its recorded submissions in turn (sandbox bwrap, concurrency ${CORES}, --no-llm, warm caches, start-up included; medians of ${RUNS})\n`,
  );
  console.log(
    table(['exercise', 'what', 'floor CPU', 'jest CPU', 'evigrade CPU', 'evigrade ÷ floor', 'jest ÷ evigrade'], rows),
  );
  console.log(
    `\nCPU from ${CPU_SOURCE}; ${CORES} cores, node ${process.version}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  summary(
    `${k} real exercises, a class of ${N} each (their recorded submissions in turn), CPU per submission`,
    `${(totals.evigrade / k).toFixed(0)} ms (${(totals.evigrade / totals.floor).toFixed(2)}× floor; the dearest, ${worst.slug}, ${worst.ratio.toFixed(2)}×)`,
    `floor ${(totals.floor / k).toFixed(0)} ms; jest ${(totals.jest / k).toFixed(0)} ms (${(totals.jest / totals.evigrade).toFixed(1)}× evigrade)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
