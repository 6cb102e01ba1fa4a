// `evigrade audit` beside the usual peers, on the same exercise and the same machine, in one run:
//   JavaScript: StrykerJS 9.6 with its Jest runner (jest 29 + babel-jest, exercism's set-up) on tests/agreement/say,
//               against `evigrade audit` of the same tests and reference;
//   Python:     the naive loop (one `python3 -m pytest -x` per mutant, unsandboxed: the floor) on rubrics/bank-account,
//               over the same mutants evigrade makes, against `evigrade audit`.
// Wall time of the whole command, what a user waits (start-up included); the mutant counts printed beside it.
// usage: node bench/audit.bench.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const require = createRequire(join(ROOT, 'package.json'));
const cores = availableParallelism();
const wall = (fn) => {
  const t0 = performance.now();
  const value = fn();
  return { s: (performance.now() - t0) / 1000, value };
};

function evigrade(rubricYaml, out) {
  const r = wall(() =>
    execFileSync(process.execPath, [join(ROOT, 'bin/evigrade.js'), 'audit', rubricYaml, '--out', out], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const a = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
  return {
    s: r.s,
    mutants: a.counts.total,
    killed: a.counts.killed + a.counts.timeout,
    mutantPhaseS: a.timings.mutantsMs / 1000,
  };
}

function strykerSay(dir) {
  const src = join(ROOT, 'tests/agreement/say');
  cpSync(join(src, 'say.spec.js'), join(dir, 'say.spec.js'));
  cpSync(join(src, 'solutions/reference.js'), join(dir, 'say.js'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(
    join(dir, 'babel.config.cjs'),
    `module.exports = { presets: [[${JSON.stringify(require.resolve('@babel/preset-env'))}, { targets: { node: 'current' } }]] };\n`,
  );
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    'module.exports = { testEnvironment: "node", testMatch: ["**/*.spec.js"] };\n',
  );
  writeFileSync(join(dir, 'package.json'), '{ "name": "say-bench", "private": true }\n');
  const conf = {
    testRunner: 'jest',
    mutate: ['say.js'],
    reporters: ['json'],
    concurrency: cores,
    coverageAnalysis: 'perTest',
    plugins: [join(ROOT, 'node_modules/@stryker-mutator/jest-runner/dist/src/index.js')],
    jsonReporter: { fileName: 'stryker.json' },
    tempDirName: '.stryker-tmp',
  };
  writeFileSync(join(dir, 'stryker.config.json'), JSON.stringify(conf));
  const bin = join(require.resolve('@stryker-mutator/core/package.json'), '..', 'bin', 'stryker.js');
  const r = wall(() =>
    spawnSync(process.execPath, [bin, 'run'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' }),
  );
  if (r.value.status !== 0)
    throw new Error(`stryker failed (${r.value.status}): ${r.value.stdout.slice(-2000)}${r.value.stderr.slice(-2000)}`);
  const files = JSON.parse(readFileSync(join(dir, 'stryker.json'), 'utf8')).files;
  const ms = Object.values(files).flatMap((f) => f.mutants);
  return {
    s: r.s,
    mutants: ms.length,
    killed: ms.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length,
  };
}

async function naivePytest(dir) {
  const { pyMutants } = await import(join(ROOT, 'dist/audit/py-mutants.js'));
  const { applyMutant } = await import(join(ROOT, 'dist/audit/sites.js'));
  const rub = join(ROOT, 'rubrics/bank-account');
  const text = readFileSync(join(rub, 'reference/bank_account.py'), 'utf8');
  const mutants = await pyMutants('bank_account.py', text);
  for (const t of ['bank_account_test.py', 'test_bank_edge.py', 'conftest.py'])
    cpSync(join(rub, 'tests', t), join(dir, t));
  let killed = 0;
  const r = wall(() => {
    for (const m of mutants) {
      writeFileSync(join(dir, 'bank_account.py'), applyMutant(text, m));
      const p = spawnSync('python3', ['-m', 'pytest', '-x', '-q', '-p', 'no:cacheprovider', dir], {
        cwd: dir,
        stdio: 'ignore',
      });
      if (p.status !== 0) killed++;
    }
  });
  return { s: r.s, mutants: mutants.length, killed };
}

const work = mkdtempSync(join(tmpdir(), 'evigrade-audit-bench-'));
try {
  console.log(
    `machine: ${cores} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at start`,
  );
  mkdirSync(join(work, 'say'));
  const sayRubric = join(work, 'say-rubric');
  mkdirSync(join(sayRubric, 'tests'), { recursive: true });
  mkdirSync(join(sayRubric, 'reference'));
  cpSync(join(ROOT, 'tests/agreement/say/say.spec.js'), join(sayRubric, 'tests/say.spec.js'));
  cpSync(join(ROOT, 'tests/agreement/say/solutions/reference.js'), join(sayRubric, 'reference/say.js'));
  writeFileSync(
    join(sayRubric, 'rubric.yaml'),
    'id: say\ntitle: say\nlanguage: javascript\nstatement: say\nentry: ./say\ntests:\n  - tests/say.spec.js\nreference: reference\n',
  );
  const rows = [];
  const ev = evigrade(join(sayRubric, 'rubric.yaml'), join(work, 'say-out'));
  rows.push(['JS say (25 lines)', 'evigrade audit (sandboxed, 10 reference runs for flakiness)', ev]);
  rows.push(['JS say (25 lines)', 'StrykerJS 9.6 + Jest runner (unsandboxed)', strykerSay(join(work, 'say'))]);
  const evPy = evigrade(join(ROOT, 'rubrics/bank-account/rubric.yaml'), join(work, 'bank-out'));
  rows.push(['Python bank-account (48 lines)', 'evigrade audit (sandboxed, 10 reference runs for flakiness)', evPy]);
  mkdirSync(join(work, 'naive'));
  rows.push([
    'Python bank-account (48 lines)',
    'naive loop: one pytest -x per mutant (unsandboxed)',
    await naivePytest(join(work, 'naive')),
  ]);
  console.log(
    '| exercise | tool | mutants | detected | wall (s) | of which mutant runs (s) |\n|---|---|---|---|---|---|',
  );
  for (const [ex, tool, r] of rows)
    console.log(
      `| ${ex} | ${tool} | ${r.mutants} | ${r.killed} | ${r.s.toFixed(1)} | ${r.mutantPhaseS?.toFixed(1) ?? '—'} |`,
    );
  console.log(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
