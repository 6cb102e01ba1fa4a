// CPU per harness job beside its floor, and what the hardened realm (ses: load + lockdown) costs in it.
//   node     — `node -e 0`: the process itself;
//   realm    — inside one process: loading ses from source, then lockdown() with the harness's options;
//   floor    — bare `node` loading Jest's `expect` and the solution and running the same assertions;
//   job      — the bundled harness (sandbox/dist) started from its V8 start-up snapshot, as the process
//              backends start it but without the sandbox: a Jest-style CommonJS test file, then an ESM one;
//   boot     — the same jobs through boot.cjs and its V8 code cache, as Docker starts them (and any job
//              when no snapshot can be made).
// CPU is the process's own user+sys time (all its threads), reported by a preloaded module at exit:
// microseconds, not the 10 ms ticks of /proc. Median of BENCH_RUNS (21) runs each.
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harnessSnapshotFor } from '../dist/adapters/sandbox/harness-snapshot.js';
import { jobNodeArgs } from '../dist/runtime/node-flags.js';
import { ensureRootfs } from '../dist/adapters/sandbox/rootfs.js';
import { summary } from './cpu.mjs';
import { CASES, CJS_SOLUTION, JEST_TEST } from './leap-fixture.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'sandbox', 'dist');
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const require = createRequire(join(ROOT, 'package.json'));
const work = mkdtempSync(join(tmpdir(), 'evigrade-realm-bench-'));

const ESM_SOLUTION = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const ESM_TEST = `import { isLeap } from './leap';\n${JEST_TEST.split('\n').slice(1).join('\n')}`;
const FLOOR = `const { expect } = require(${JSON.stringify(require.resolve('expect'))});\nconst { isLeap } = require(${JSON.stringify(join(work, 'cjs', 'leap.js'))});\n${CASES.map(([y, r]) => `expect(isLeap(${y})).toBe(${r});`).join('\n')}\n`;
// Measured inside the process (CPU deltas around each step): loading ses from source, then lockdown().
const REALM = `const c = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = c(); require(${JSON.stringify(require.resolve('ses'))}); const t1 = c();
lockdown({ errorTaming: 'unsafe', consoleTaming: 'unsafe', domainTaming: 'unsafe', localeTaming: 'unsafe', overrideTaming: 'severe', stackFiltering: 'verbose', errorTrapping: 'none', unhandledRejectionTrapping: 'none', reporting: 'none' });
const t2 = c(); require('fs').writeSync(2, 'REALM ' + (t1 - t0) + ' ' + (t2 - t1) + '\\n');`;

// Preloaded into every measured process: prints its own CPU time as it exits.
const REPORT = join(work, 'cpu.cjs');
writeFileSync(
  REPORT,
  "process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeSync(2, '\\nCPU_US ' + (u.user + u.system) + '\\n'); });\n",
);
// Exactly the flags a sandbox gives a job (512 MB of memory, the rubric default).
const NODE_ARGS = jobNodeArgs(512);

function cpuMs(args, opts = {}) {
  const r = spawnSync(process.execPath, ['--require', REPORT, ...args], {
    encoding: 'utf8',
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    ...opts,
  });
  const m = /CPU_US (\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`no CPU figure from ${args.join(' ')}: ${r.stderr}`);
  return Number(m[1]) / 1000;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const measure = (fn) => median(Array.from({ length: RUNS }, fn));

/** One job's CPU; `start`: what follows the node flags (boot.cjs and its cache, or the snapshot). */
function harnessJob(kind, start) {
  const dir = join(work, kind);
  const payload = {
    key: randomBytes(32).toString('hex'),
    mode: 'run',
    root: dir,
    entry: './leap',
    tests: [{ name: 'leap.spec.js', source: kind === 'cjs' ? JEST_TEST : ESM_TEST }],
    only: null,
    stubNames: ['isLeap'],
    testTimeoutMs: 5000,
    outputBytes: 65536,
    builtins: [],
  };
  return (extraEnv = {}) =>
    cpuMs([...NODE_ARGS, ...start], {
      input: JSON.stringify(payload),
      env: { PATH: '/usr/bin:/bin', ...extraEnv },
    });
}

for (const [kind, src] of [
  ['cjs', CJS_SOLUTION],
  ['esm', ESM_SOLUTION],
]) {
  spawnSync('mkdir', ['-p', join(work, kind)]);
  writeFileSync(join(work, kind, 'leap.js'), src);
}
// The V8 code cache a grader makes once (boot.cjs writes it at exit when EVIGRADE_CACHE_OUT is set).
const cache = join(work, 'harness.cache');
harnessJob('cjs', [join(DIST, 'boot.cjs')])({ EVIGRADE_CACHE_OUT: cache });
readFileSync(cache);
const BOOT = [join(DIST, 'boot.cjs'), cache];
// The start-up snapshot a grader makes once per root file system and flags, as the sandbox makes it.
process.env.EVIGRADE_CACHE_DIR = join(work, 'grader-cache');
const rootfs = await ensureRootfs(join(work, 'base'), DIST);
const blob = await harnessSnapshotFor(rootfs, NODE_ARGS);
if (!blob) throw new Error('no start-up snapshot could be made for the harness');
const SNAPSHOT = ['--snapshot-blob', join(rootfs, blob)];

const node = measure(() => cpuMs(['-e', '0']));
const realmSteps = Array.from({ length: RUNS }, () => {
  const r = spawnSync(process.execPath, ['-e', REALM], { encoding: 'utf8' });
  const m = /REALM ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no realm figure: ${r.stderr}`);
  return [Number(m[1]), Number(m[2])];
});
const sesLoad = median(realmSteps.map((x) => x[0]));
const lockdownMs = median(realmSteps.map((x) => x[1]));
const floor = measure(() => cpuMs(['-e', FLOOR]));
const cjs = measure(() => harnessJob('cjs', SNAPSHOT)());
const esm = measure(() => harnessJob('esm', SNAPSHOT)());
const bootCjs = measure(() => harnessJob('cjs', BOOT)());
const bootEsm = measure(() => harnessJob('esm', BOOT)());
const snapshot = floorSnapshot();
const floorFromSnapshot = snapshot ? measure(() => cpuMs(['--snapshot-blob', snapshot])) : null;
rmSync(work, { recursive: true, force: true });

/**
 * Not how jobs run: the floor's own program started from a V8 start-up snapshot (`node --build-snapshot`) that
 * already holds `expect` and the solution loaded: what a job from a snapshot costs without the realm (ses and
 * lockdown(), which must run per job: bench/README.md). Null if this Node cannot build one.
 */
function floorSnapshot() {
  const entry = join(work, 'snapshot-entry.cjs');
  const blob = join(work, 'floor.blob');
  const body = `const { expect } = require('expect');\nconst { isLeap } = require(${JSON.stringify(join(work, 'cjs', 'leap.js'))});\n`;
  const run = CASES.map(([y, r]) => `expect(isLeap(${y})).toBe(${r});`).join('\n');
  const bundled = buildSync({
    stdin: {
      contents: `${body}require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {\n${run}\nprocess.stdout.write('ok\\n');\n});\n`,
      resolveDir: ROOT,
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(entry, bundled.outputFiles[0].text);
  const built = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], { stdio: 'ignore' });
  if (built.status !== 0) return null;
  // It must run the same assertions and pass them, as the floor does.
  const check = spawnSync(process.execPath, ['--snapshot-blob', blob], { encoding: 'utf8' });
  if (check.status !== 0 || check.stdout !== 'ok\n') throw new Error(`the snapshot probe failed: ${check.stderr}`);
  return blob;
}

const f = (ms) => `${ms.toFixed(1).padStart(6)} ms`;
console.log(`CPU per job, median of ${RUNS} (Node ${process.version}, ${process.arch}):`);
console.log(`  node -e 0                               ${f(node)}`);
console.log(`  floor: node + expect + solution          ${f(floor)}`);
console.log(
  `  harness job, Jest-style CommonJS         ${f(cjs)}   ${(cjs / floor).toFixed(2)}x the floor  (from the start-up snapshot)`,
);
console.log(`  harness job, ES modules                  ${f(esm)}   ${(esm / floor).toFixed(2)}x the floor`);
console.log(`  the same from boot.cjs + code cache      ${f(bootCjs)} / ${f(bootEsm)}   (as Docker starts a job)`);
if (floorFromSnapshot !== null)
  console.log(
    `  (probe) the floor from a V8 start-up snapshot holding expect and the solution  ${f(floorFromSnapshot)}   ${(floorFromSnapshot / floor).toFixed(2)}x the floor`,
  );
console.log(`  the realm: lockdown()                    ${f(lockdownMs)}`);
console.log(
  `  the realm: loading ses from source       ${f(sesLoad)}   (in a job it comes from the harness's V8 code cache)`,
);
summary(
  'harness job CPU from its start-up snapshot, CommonJS / ES-module test file',
  `${cjs.toFixed(0)} / ${esm.toFixed(0)} ms`,
  `from boot.cjs + code cache ${bootCjs.toFixed(0)} / ${bootEsm.toFixed(0)} ms; floor ${floor.toFixed(0)} ms; node -e 0 ${node.toFixed(0)} ms`,
);
if (floorFromSnapshot !== null)
  summary(
    'probe, not how jobs run: the floor started from a V8 start-up snapshot',
    `${floorFromSnapshot.toFixed(0)} ms`,
    `floor ${floor.toFixed(0)} ms; node -e 0 ${node.toFixed(0)} ms`,
  );
summary(
  'the realm: lockdown() / ses loaded from source',
  `${lockdownMs.toFixed(1)} / ${sesLoad.toFixed(1)} ms`,
  'issue 12 aims at ≤ ~15 ms per job for the realm',
);
