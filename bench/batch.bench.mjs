// What a teacher pays, start-up included, on a real exercise (exercism's `say`, from tests/agreement: an ES
// module test file with 13 tests, the reference solution as every submission), measured side by side:
//   floor    — bare `node` loading Jest's `expect` and the solution and running the same 13 tests, unsandboxed,
//              one process per submission (what running the tests at all costs);
//   peer     — one `jest` process per submission (jest 29 + babel-jest, exercism's own set-up; warm cache);
//   evigrade — the whole `evigrade grade` command over the class (bwrap, --no-llm), start-up included, run as
//              `node bin/evigrade.js` and as `npx evigrade` from the repo root (what the README tells a teacher to type);
// and the same class under Docker beside bwrap, interleaved, with Docker's CPU counted in full: the command's cgroup
// plus its containers' and the engine's (dockerd, containerd, shims, runc: bench/engine-cpu.mjs). `BENCH_BASE_BIN`
// grades the Docker rows with another build too (before and after in one run). Start-up alone is startup.bench.mjs.
// CPU from a cpuacct cgroup around each command.
import { availableParallelism, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CPU_SOURCE, MACHINE_STARTUP_ENV, commandCpu as cpuOf, medianOf, medianRun, summary, table } from './cpu.mjs';
import { DOCKER_HEADS, dockerRow, engineCpu, signedMs } from './engine-cpu.mjs';
import { jestArgs } from './jest-peer.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// BENCH_BIN measures another build (an older checkout's bin/evigrade.js) with the same floor and peer.
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'evigrade.js');
// BENCH_BASE_BIN: another build's bin/evigrade.js, graded under Docker beside this one (the Docker rows' "before").
const BASE_BIN = process.env.BENCH_BASE_BIN ?? null;
const SAY = join(ROOT, 'tests', 'agreement', 'say');
const require = createRequire(join(ROOT, 'package.json'));
const N = Number(process.env.BENCH_CLASS ?? 24);
const BIG = Number(process.env.BENCH_BIG ?? 240);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SANDBOX = process.env.BENCH_SANDBOX ?? 'bwrap';
const CORES = availableParallelism();
const work = mkdtempSync(join(tmpdir(), 'evigrade-batch-bench-'));
const cacheDir = join(work, 'cache');
const env = { ...process.env, EVIGRADE_CACHE_DIR: cacheDir, CI: 'true' };

const spec = readFileSync(join(SAY, 'say.spec.js'), 'utf8');
const solution = readFileSync(join(SAY, 'solutions', 'reference.js'), 'utf8');
const rubricDir = join(work, 'rubric');
mkdirSync(rubricDir);
writeFileSync(join(rubricDir, 'say.spec.js'), spec);
writeFileSync(
  join(rubricDir, 'rubric.yaml'),
  'id: say\ntitle: Say\nlanguage: javascript\nstatement: Spell out a number in English.\nentry: ./say\ntests: [say.spec.js]\n',
);
const RUBRIC = join(rubricDir, 'rubric.yaml');

function classOf(n) {
  const dir = join(work, `class-${n}`);
  for (let i = 0; i < n; i++) {
    mkdirSync(join(dir, `s${String(i).padStart(4, '0')}`), { recursive: true });
    writeFileSync(join(dir, `s${String(i).padStart(4, '0')}`, 'say.js'), solution);
  }
  return dir;
}
const gradeArgs = (dir, extra, sandbox) => [
  'grade',
  dir,
  '--rubric',
  RUBRIC,
  '--out',
  `${dir}-out`,
  '--no-llm',
  '--sandbox',
  sandbox,
  '--concurrency',
  String(CORES),
  '--force',
  ...extra,
];
const grade = (dir, extra = [], sandbox = SANDBOX, bin = BIN) =>
  cpuOf(process.execPath, [bin, ...gradeArgs(dir, extra, sandbox)], { env, timeoutMs: 240_000 });
// `npx evigrade grade …` from the repo root, as the README has a teacher type it after `npm ci`.
const gradeNpx = (dir) =>
  cpuOf('npx', ['evigrade', ...gradeArgs(dir, [], SANDBOX)], { env, cwd: ROOT, timeoutMs: 240_000 });
/** A Docker class: the command's CPU plus what its containers and the engine spent (`engine`: that part alone). */
async function gradeDocker(dir, bin) {
  const counting = await engineCpu();
  let run;
  try {
    run = grade(dir, [], 'docker', bin);
  } catch (e) {
    await counting.stop();
    throw e;
  }
  const engine = await counting.stop();
  return { ...run, cpu: run.cpu + engine.total, own: run.cpu, engine };
}
// Floor: the spec as an ES module beside the solution (the one import made explicit for Node's resolver), run
// by a minimal describe/test that awaits each test in order (the reference must pass all 13). A CommonJS
// solution sits in say.cjs, which Node's ES-module loader imports with its named exports.
function makeFloor(name, solutionText) {
  const dir = join(work, `floor-${name}`);
  mkdirSync(dir);
  const file = /\bmodule\.exports\b/.test(solutionText) ? 'say.cjs' : 'say.js';
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, file), solutionText);
  writeFileSync(join(dir, 'say.spec.js'), spec.replace("from './say';", `from './${file}';`));
  writeFileSync(
    join(dir, 'floor.mjs'),
    `import { createRequire } from 'node:module';
const { expect } = createRequire(${JSON.stringify(join(ROOT, 'package.json'))})('expect');
const tests = []; const path = [];
globalThis.expect = expect;
globalThis.describe = (name, fn) => { path.push(name); fn(); path.pop(); };
globalThis.test = globalThis.it = (name, fn) => { tests.push([[...path, name].join(' > '), fn]); };
await import(${JSON.stringify(pathToFileURL(join(dir, 'say.spec.js')).href)});
let passed = 0;
for (const [, fn] of tests) { try { await fn(); passed++; } catch {} }
process.stdout.write(passed + '/' + tests.length + '\\n');
`,
  );
  return [join(dir, 'floor.mjs')];
}

// Peer: exercism's Jest set-up (Babel compiles the ES module spec), one process per submission, warm cache.
function makeJest(name, solutionText) {
  const dir = join(work, `jest-${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{"private":true}');
  writeFileSync(
    join(dir, 'babel.config.cjs'),
    `module.exports = { presets: [[${JSON.stringify(require.resolve('@babel/preset-env'))}, { targets: { node: 'current' } }]] };\n`,
  );
  writeFileSync(join(dir, 'say.js'), solutionText);
  writeFileSync(join(dir, 'say.spec.js'), spec);
  return jestArgs(dir, join(work, 'jest-cache'));
}
const floorArgs = makeFloor('reference', solution);
const referenceJest = makeJest('reference', solution);

// A mixed class, closer to a real one than 24 copies of the reference: every recorded `say` submission of the
// Jest-agreement corpus in turn (the reference; three that fail some tests, one of them CommonJS). Its floor and
// peer are the mean over those submissions of each one's median.
const SOLUTIONS = readdirSync(join(SAY, 'solutions'))
  .filter((f) => f.endsWith('.js'))
  .sort()
  .map((f) => [basename(f, '.js'), readFileSync(join(SAY, 'solutions', f), 'utf8')]);
function mixedClassOf(n) {
  const dir = join(work, `mixed-${n}`);
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `s${String(i).padStart(4, '0')}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'say.js'), SOLUTIONS[i % SOLUTIONS.length][1]);
  }
  return dir;
}
const meanOf = (xs) => ({
  cpu: xs.reduce((a, x) => a + x.cpu, 0) / xs.length,
  wall: xs.reduce((a, x) => a + x.wall, 0) / xs.length,
});

/**
 * Per job, what Docker costs over bubblewrap on the whole class (wall, and CPU with the engine's), interleaved run by run
 * (and with BENCH_BASE_BIN's build under Docker too), or why it could not be measured.
 */
async function dockerOverBwrap(dir, runs) {
  try {
    await gradeDocker(dir); // images made, containers' engine warm
    if (BASE_BIN) await gradeDocker(dir, BASE_BIN);
  } catch (e) {
    return { error: String(e.message).split('\n')[0].slice(0, 160) };
  }
  const [b, d, base] = [[], [], []];
  for (let i = 0; i < runs; i++) {
    b.push(grade(dir, [], 'bwrap'));
    d.push(await gradeDocker(dir));
    if (BASE_BIN) base.push(await gradeDocker(dir, BASE_BIN));
  }
  const cpuMedian = (xs) => medianRun(xs.map((cpu) => ({ cpu, wall: 0 }))).cpu;
  const withEngine = (xs) => ({
    ...medianRun(xs),
    own: cpuMedian(xs.map((x) => x.own)),
    engine: cpuMedian(xs.map((x) => x.engine.total)),
  });
  return { docker: withEngine(d), base: BASE_BIN ? withEngine(base) : null, bwrap: medianRun(b) };
}

/** The class through `npx evigrade` and through `node bin/evigrade.js`, interleaved. */
function npxBesideDirect(dir, runs) {
  const [direct, npx] = [[], []];
  for (let i = 0; i < runs; i++) {
    direct.push(grade(dir));
    npx.push(gradeNpx(dir));
  }
  return { direct: medianRun(direct), npx: medianRun(npx) };
}

const started = performance.now();
try {
  const check = cpuOf(process.execPath, floorArgs);
  if (check.stdout.trim() !== '13/13') throw new Error(`the floor program did not pass the 13 tests: ${check.stdout}`);
  // The floor is sampled again before and after every graded class (this VM's speed drifts by a fifth within minutes,
  // so a floor measured only first can be read against a class run at another speed): the median of all samples.
  const floorSamples = [];
  const sampleFloor = () => floorSamples.push(cpuOf(process.execPath, floorArgs));
  for (let i = 0; i < RUNS; i++) sampleFloor();
  const bracketed = (dir) => {
    sampleFloor();
    const run = grade(dir);
    sampleFloor();
    return run;
  };
  // Every command runs without the machine's Node start-up settings (cpu.mjs); if it has some, the floor is also
  // shown as this machine's own `node` pays it, since an earlier floor was measured that way.
  const machineEnv = Object.keys(MACHINE_STARTUP_ENV);
  const floorAsIs = machineEnv.length
    ? medianOf(RUNS, () => cpuOf(process.execPath, floorArgs, { machineEnv: true }))
    : null;
  cpuOf(process.execPath, referenceJest); // warm Jest's transform cache, as a real grader has it
  const jest = medianOf(RUNS, () => cpuOf(process.execPath, referenceJest));

  const small = classOf(N);
  rmSync(cacheDir, { recursive: true, force: true });
  const classCold = bracketed(small); // first run of this rubric on this machine: collection and code cache made
  // Medians of several whole runs: on this VM one class's CPU moves by ±3 % from run to run, as much as a change
  // under test (bench/README.md, eighth pass).
  const classWarm = medianOf(Math.max(1, Math.min(5, RUNS)), () => bracketed(small));
  // Docker over bubblewrap, the class run as a whole (issue 36): the same class, warm, graded by both, interleaved.
  const docker = process.env.BENCH_DOCKER === '0' ? null : await dockerOverBwrap(small, Math.max(1, Math.min(3, RUNS)));
  // Through `npx` (this checkout's own package), paired with the direct command run by run.
  const npx =
    process.env.BENCH_NPX === '0' || process.env.BENCH_BIN
      ? null
      : npxBesideDirect(small, Math.max(1, Math.min(3, RUNS)));
  const big = classOf(BIG);
  const bigRun = medianOf(Math.max(1, Math.min(3, RUNS)), () => bracketed(big));
  const floor = medianRun(floorSamples);
  const marginal = { cpu: (bigRun.cpu - classWarm.cpu) / (BIG - N), wall: (bigRun.wall - classWarm.wall) / (BIG - N) };

  // The mixed class: its own floor and peer (each submission's median, averaged), and the whole command over it.
  const mixedFloor = meanOf(
    SOLUTIONS.map(([name, text]) => {
      const args = name === 'reference' ? floorArgs : makeFloor(name, text);
      return medianOf(RUNS, () => cpuOf(process.execPath, args));
    }),
  );
  const mixedJest = meanOf(
    SOLUTIONS.map(([name, text]) => {
      const args = name === 'reference' ? referenceJest : makeJest(name, text);
      cpuOf(process.execPath, args, { allowFail: true }); // its transform cache warm
      return medianOf(RUNS, () => cpuOf(process.execPath, args, { allowFail: true }));
    }),
  );
  const mixed = mixedClassOf(N);
  grade(mixed);
  const mixedWarm = medianOf(Math.max(1, Math.min(3, RUNS)), () => grade(mixed));

  // 900 submissions, not run (≈ 4 min of this machine): T(N) plus 900 − N marginal submissions, stated as such.
  const at900 = {
    cpu: (classWarm.cpu + (900 - N) * marginal.cpu) / 900,
    wall: (classWarm.wall + (900 - N) * marginal.wall) / 900,
  };
  const ms = (x) => `${x.toFixed(0)} ms`;
  const per = (m, n) => ms(m.cpu / n);
  const x = (a, b) => `${(a / b).toFixed(2)}×`;
  // One row: CPU and wall per submission of `m` over `n` submissions, beside the floor and the peer it is read against.
  const row = (label, m, n = 1, [f, j] = [floor, jest]) => [
    label,
    ms(m.cpu / n),
    ms(m.wall / n),
    x(m.cpu / n, f.cpu),
    x(m.cpu / n, j.cpu),
  ];
  const mixedBase = [mixedFloor, mixedJest];
  const rows = [
    row('floor: `node` + `expect` + solution, 13 tests, unsandboxed', floor),
    ...(floorAsIs
      ? [row(`floor with this machine's ${machineEnv.join(', ')} (every other row runs without)`, floorAsIs)]
      : []),
    row('peer: one `jest` 29 process per submission (warm cache)', jest),
    row(`evigrade grade, class of ${N}, whole command (warm caches), per submission`, classWarm, N),
    ...(npx
      ? [
          row(`evigrade grade through \`npx evigrade\`, class of ${N} (warm caches), per submission`, npx.npx, N),
          row(`… the same runs' direct \`node bin/evigrade.js\`, paired with them`, npx.direct, N),
        ]
      : []),
    row(`evigrade grade, class of ${N}, first run of the rubric (cold caches), per submission`, classCold, N),
    row(`evigrade grade, class of ${BIG}, whole command, per submission`, bigRun, BIG),
    row(`evigrade marginal submission ((T(${BIG}) − T(${N})) / ${BIG - N})`, marginal),
    row(
      `mixed class: floor, each of the ${SOLUTIONS.length} recorded \`say\` submissions (${SOLUTIONS.map((s) => s[0]).join(', ')}), averaged`,
      mixedFloor,
      1,
      mixedBase,
    ),
    row('mixed class: peer, one `jest` per submission, averaged', mixedJest, 1, mixedBase),
    row(
      `mixed class of ${N} (those submissions in turn), whole command (warm caches), per submission`,
      mixedWarm,
      N,
      mixedBase,
    ),
    row(`evigrade, class of 900, per submission: extrapolated (T(${N}) + ${900 - N} × marginal), not run`, at900),
  ];
  console.log(
    `Whole-batch cost on exercism's \`say\` (sandbox ${SANDBOX}, concurrency ${CORES}, --no-llm; peer: median of ${RUNS}; floor: median of ${floorSamples.length}, sampled first and before and after each graded class)\n`,
  );
  console.log(table(['per submission', 'CPU', 'wall', 'CPU vs floor', 'CPU vs jest'], rows));
  if (docker && !docker.error) {
    const drow = (label, d) => dockerRow(label, d, docker.bwrap, N);
    console.log(
      `\nDocker beside bwrap, class of ${N} run as a whole, interleaved (median of ${Math.max(1, Math.min(3, RUNS))}):\n`,
    );
    console.log(
      table(DOCKER_HEADS, [
        drow('bwrap', docker.bwrap),
        drow('docker, this build', docker.docker),
        ...(docker.base ? [drow(`docker, BENCH_BASE_BIN (${BASE_BIN})`, docker.base)] : []),
      ]),
    );
  }
  console.log(
    `\nCPU from ${CPU_SOURCE}; ${CORES} cores, node ${process.version}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  // A figure against the floor as this machine's own `node` pays it, when it differs (see floorAsIs).
  const vsAsIs = (cpu) =>
    floorAsIs ? `; ${x(cpu, floorAsIs.cpu)} the floor with ${machineEnv.join(', ')} (${ms(floorAsIs.cpu)})` : '';
  summary(
    `class of ${N} \`say\`, CPU per submission, whole command`,
    `${per(classWarm, N)} (${x(classWarm.cpu / N, floor.cpu)} floor)`,
    `floor ${ms(floor.cpu)}; jest ${ms(jest.cpu)} (${x(jest.cpu, classWarm.cpu / N)} evigrade); target ≤ 1.5× floor, ≥ 5× cheaper than jest` +
      vsAsIs(classWarm.cpu / N),
  );
  summary(
    `mixed class of ${N} (the ${SOLUTIONS.length} recorded \`say\` submissions in turn), CPU per submission`,
    `${per(mixedWarm, N)} (${x(mixedWarm.cpu / N, mixedFloor.cpu)} its floor)`,
    `floor ${ms(mixedFloor.cpu)}; jest ${ms(mixedJest.cpu)} (${x(mixedJest.cpu, mixedWarm.cpu / N)} evigrade)`,
  );
  summary(
    `class of ${BIG} \`say\`, CPU per submission, whole command`,
    `${per(bigRun, BIG)} (${x(bigRun.cpu / BIG, floor.cpu)} floor)`,
    `marginal ${ms(marginal.cpu)} (${x(marginal.cpu, floor.cpu)} floor)` + vsAsIs(marginal.cpu),
  );
  if (npx)
    summary(
      `class of ${N} \`say\` through \`npx evigrade\`, CPU per submission, whole command`,
      `${per(npx.npx, N)} (${x(npx.npx.cpu / N, floor.cpu)} floor)`,
      `direct \`node bin/evigrade.js\` in the same pairs ${per(npx.direct, N)} (${x(npx.direct.cpu / N, floor.cpu)}); npx's own start-up ${ms(npx.npx.cpu - npx.direct.cpu)} a command; target ≤ 1.5× floor`,
    );
  const overBwrap = (d) =>
    `wall ${signedMs((d.wall - docker.bwrap.wall) / N)}, CPU ${signedMs((d.cpu - docker.bwrap.cpu) / N)} (containers and engine: ${per({ cpu: d.engine }, N)} a job)`;
  if (docker?.error) summary(`Docker over bwrap, class of ${N}, per job`, 'not measured', docker.error);
  else if (docker)
    summary(
      `Docker over bwrap, class of ${N} \`say\` run as a whole, per job (CPU: command + containers + engine)`,
      overBwrap(docker.docker),
      `bwrap ${per(docker.bwrap, N)} CPU, ${ms(docker.bwrap.wall / N)} wall per job` +
        (docker.base ? `; BENCH_BASE_BIN's build: ${overBwrap(docker.base)}` : '') +
        '; target ≤ 150 ms per job over bwrap',
    );
  summary(
    'class of 900 `say`, CPU per submission (extrapolated from T(' + N + ') and the marginal, not run)',
    `${ms(at900.cpu)} (${x(at900.cpu, floor.cpu)} floor)`,
    'target ≤ 1.2× floor at 900' + vsAsIs(at900.cpu),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
