// Grading cost per submission, beside its floor and its usual peer, measured in one run:
//   floor  — a bare `node` run of the same node:test file, unsandboxed;
//   peer   — one `jest` process per submission (the usual autograder setup);
//   evigrade — `evigrade grade` over N copies (marginal cost per submission, sandboxed).
// CPU is the children's user+sys time from /proc/self/stat (every process we wait for,
// and the processes they waited for, bwrap's and the jobs' included).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpu } from './cpu.mjs';
import { jestArgs } from './jest-peer.mjs';
import { CASES, CJS_SOLUTION as SOLUTION, JEST_TEST } from './leap-fixture.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'evigrade.js');
// Jest is the peer, a devDependency (29, as exercism's JavaScript track uses): nothing is installed at bench time.
const N = Number(process.env.BENCH_N ?? 20);
const SANDBOX = process.env.BENCH_SANDBOX ?? 'auto';

const NODE_TEST = `const { describe, it } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { isLeap } = require('./leap');\ndescribe('A leap year', () => {\n${CASES.map(([y, r]) => `  it('year ${y}', () => { assert.equal(isLeap(${y}), ${r}); });`).join('\n')}\n});\n`;

const cpu = childCpu();
const CPU_SOURCE = cpu.source;
const childCpuMs = () => cpu.childMs();

function measure(fn) {
  const c0 = childCpuMs();
  const t0 = performance.now();
  fn();
  return { wall: performance.now() - t0, cpu: childCpuMs() - c0 };
}

function run(file, args, opts = {}) {
  const r = spawnSync(file, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0 && !opts.allowFail)
    throw new Error(`${file} ${args.join(' ')} exited ${r.status}: ${r.stderr?.slice(0, 2000)}`);
  return r;
}

function setup(work, kind, n) {
  const rubricDir = join(work, `rubric-${kind}`);
  mkdirSync(rubricDir, { recursive: true });
  const testName = kind === 'jest' ? 'leap.test.js' : 'leap.node.test.js';
  writeFileSync(join(rubricDir, testName), kind === 'jest' ? JEST_TEST : NODE_TEST);
  writeFileSync(
    join(rubricDir, 'rubric.yaml'),
    `id: bench-${kind}\ntitle: Bench\nlanguage: javascript\nstatement: bench\nentry: ./leap\ntests: [${testName}]\n`,
  );
  const subs = join(work, `subs-${kind}-${n}`);
  for (let i = 0; i < n; i++) {
    mkdirSync(join(subs, `s${String(i).padStart(3, '0')}`), { recursive: true });
    writeFileSync(join(subs, `s${String(i).padStart(3, '0')}`, 'leap.js'), SOLUTION);
  }
  return { rubric: join(rubricDir, 'rubric.yaml'), subs, testFile: join(rubricDir, testName) };
}

function evigrade(work, kind, n, concurrency) {
  const { rubric, subs } = setup(work, kind, n);
  const out = join(work, `out-${kind}-${n}-${concurrency}`);
  return measure(() =>
    run(process.execPath, [
      BIN,
      'grade',
      subs,
      '--rubric',
      rubric,
      '--out',
      out,
      '--concurrency',
      String(concurrency),
      '--sandbox',
      SANDBOX,
      '--force',
    ]),
  );
}

/** Marginal cost per submission: (T(3N) − T(N)) / 2N, so fixed start-up costs cancel. */
function marginal(work, kind, concurrency) {
  const small = evigrade(work, kind, N, concurrency);
  const large = evigrade(work, kind, 3 * N, concurrency);
  return { wall: (large.wall - small.wall) / (2 * N), cpu: (large.cpu - small.cpu) / (2 * N), batch1: small.wall / N };
}

function perRun(n, fn) {
  const m = measure(() => {
    for (let i = 0; i < n; i++) fn(i);
  });
  return { wall: m.wall / n, cpu: m.cpu / n };
}

const work = mkdtempSync(join(tmpdir(), 'evigrade-bench-'));
try {
  const floorDir = join(work, 'floor');
  mkdirSync(floorDir);
  writeFileSync(join(floorDir, 'leap.js'), SOLUTION);
  writeFileSync(join(floorDir, 'leap.node.test.js'), NODE_TEST);
  run(process.execPath, [join(floorDir, 'leap.node.test.js')]); // warm the page cache
  const floor = perRun(N, () => run(process.execPath, [join(floorDir, 'leap.node.test.js')]));

  const jestDirs = Array.from({ length: N }, (_, i) => {
    const d = join(work, `jest-${i}`);
    mkdirSync(d);
    writeFileSync(join(d, 'leap.js'), SOLUTION);
    writeFileSync(join(d, 'leap.test.js'), JEST_TEST);
    writeFileSync(join(d, 'package.json'), '{"name":"s","private":true}');
    return d;
  });
  const peerArgs = (d) => jestArgs(d, join(work, 'jest-cache'));
  run(process.execPath, peerArgs(jestDirs[0])); // warm Jest's transform cache, as a real grader would have it
  const peer = perRun(N, (i) => run(process.execPath, peerArgs(jestDirs[i])));

  const nodeTest1 = marginal(work, 'node', 1);
  const jestStyle1 = marginal(work, 'jest', 1);
  const cores = availableParallelism();
  const jestStyleC = marginal(work, 'jest', cores);

  const ms = (x) => `${x.toFixed(0).padStart(5)} ms`;
  const rows = [
    ['floor: bare `node` on the node:test file (unsandboxed)', floor],
    ['peer: one `jest` process per submission (warm cache)', peer],
    ['evigrade, node:test file, concurrency 1', nodeTest1],
    ['evigrade, Jest-style file, concurrency 1', jestStyle1],
    [`evigrade, Jest-style file, concurrency ${cores}`, jestStyleC],
  ];
  const lines = [
    `Grading cost per submission (N=${N}; evigrade figures are marginal: (T(${3 * N}) - T(${N})) / ${2 * N}; sandbox ${SANDBOX})`,
    '',
    '| case | wall / submission | CPU / submission |',
    '|---|---|---|',
    ...rows.map(([name, m]) => `| ${name} | ${ms(m.wall)} | ${ms(m.cpu)} |`),
    '',
    `evigrade (node:test) / floor: wall ${(nodeTest1.wall / floor.wall).toFixed(2)}x, CPU ${(nodeTest1.cpu / floor.cpu).toFixed(2)}x (aim: within 1.3x)`,
    `peer (jest) / evigrade (Jest-style): wall ${(peer.wall / jestStyle1.wall).toFixed(1)}x, CPU ${(peer.cpu / jestStyle1.cpu).toFixed(1)}x (aim: at least 5x)`,
    `evigrade batch of ${N} including start-up (rubric collection, sandbox set-up): ${nodeTest1.batch1.toFixed(0)} ms per submission at concurrency 1`,
    `CPU measured with ${CPU_SOURCE}; machine: ${cores} cores, node ${process.version}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
  cpu.close();
}
