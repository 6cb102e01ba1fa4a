// Issue 30: CPU per JavaScript job before and after the closed realm (in-realm ports, membrane facades, frozen
// global bindings, accessors read once), beside the floor, in one run. The "before" harness is built here from
// BENCH_BASE (default: the commit issue 30 started from) with the same esbuild options; both run through boot.cjs
// with their own V8 code cache, as Docker starts a job (the process backends start from a snapshot of the same
// bundle, which takes the module loading off both alike). Two submissions: leap (no built-in), and one that loads
// events, Buffer, stream and fs (the ports are evaluated in its Compartment on first use).
// CPU is each process's own user+sys (all threads), printed by a preloaded module at exit; median of BENCH_RUNS
// (15) interleaved runs. Usage: npm run build && node bench/realm-boundary.bench.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../scripts/node-bundle.mjs';
import { CASES, CJS_SOLUTION, JEST_TEST } from './leap-fixture.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BASE = process.env.BENCH_BASE ?? 'd034e06';
const require = createRequire(join(ROOT, 'package.json'));
const work = mkdtempSync(join(tmpdir(), 'evigrade-boundary-bench-'));

// The harness as it was: its sources at BASE, bundled as scripts/build-harness.mjs bundles them — or, with
// BENCH_BEFORE_DIST, a harness already built from another commit (one whose build generates the userland ports, which
// this bundling step does not: `git archive <commit> sandbox scripts package.json`, then scripts/build-harness.mjs).
const oldDist = process.env.BENCH_BEFORE_DIST ?? (await bundleBase());
async function bundleBase() {
  const old = join(work, 'old');
  mkdirSync(old);
  execFileSync('sh', ['-c', `git -C '${ROOT}' archive ${BASE} sandbox/harness | tar -x -C '${old}'`]);
  const oldDist = join(old, 'dist');
  await build({
    entryPoints: [join(old, 'sandbox', 'harness', 'main.cjs')],
    outfile: join(oldDist, 'harness.cjs'),
    ...NODE_BUNDLE,
    nodePaths: [join(ROOT, 'node_modules')],
    alias: {
      'supports-color': join(old, 'sandbox', 'harness', 'stubs', 'supports-color.cjs'),
      'graceful-fs': join(old, 'sandbox', 'harness', 'stubs', 'graceful-fs.cjs'),
    },
  });
  for (const f of ['boot.cjs', 'hooks.mjs']) copyFileSync(join(old, 'sandbox', 'harness', f), join(oldDist, f));
  return oldDist;
}
const HARNESSES = { before: oldDist, after: join(ROOT, 'sandbox', 'dist') };

// Loads what the realm now serves in-realm (events, stream, Buffer) and through facades (fs, path, util), in a way
// the harness before issue 30 could run too (it served require('events') as a plain object, not a class).
const BUILTINS_SOLUTION = `const events = require('events');
const stream = require('stream');
const fs = require('fs');
const path = require('path');
const util = require('util');
const ok = typeof events === 'function' || typeof events === 'object';
const isLeap = (y) => ok && typeof stream.Readable === 'function' && Buffer.from(util.format('%d', y)).length > 0 && fs.existsSync(path.join(__dirname, 'leap.js')) && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
module.exports = { isLeap };
`;
const SOLUTIONS = { leap: CJS_SOLUTION, 'events,stream,Buffer,fs,path,util': BUILTINS_SOLUTION };

const REPORT = join(work, 'cpu.cjs');
writeFileSync(
  REPORT,
  "process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeSync(2, '\\nCPU_US ' + (u.user + u.system) + '\\n'); });\n",
);
function cpuMs(args, opts = {}) {
  const r = spawnSync(process.execPath, ['--require', REPORT, ...args], {
    encoding: 'utf8',
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    ...opts,
  });
  const m = /CPU_US (\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`no CPU figure from ${args.join(' ')}: ${r.stderr}`);
  return { ms: Number(m[1]) / 1000, frames: String(r.output?.[3] ?? '') };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function job(dist, dir, cache, extraEnv = {}) {
  const payload = {
    key: randomBytes(32).toString('hex'),
    mode: 'run',
    root: dir,
    entry: './leap',
    tests: [{ name: 'leap.spec.js', source: JEST_TEST }],
    only: null,
    stubNames: ['isLeap'],
    testTimeoutMs: 5000,
    outputBytes: 65536,
    builtins: [],
  };
  return cpuMs([join(dist, 'boot.cjs'), ...(cache ? [cache] : [])], {
    input: JSON.stringify(payload),
    env: { PATH: '/usr/bin:/bin', ...extraEnv },
  });
}

const rows = [];
for (const [name, source] of Object.entries(SOLUTIONS)) {
  const dir = join(work, name.replace(/\W/g, '-'));
  mkdirSync(dir);
  writeFileSync(join(dir, 'leap.js'), source);
  const caches = {};
  for (const [which, dist] of Object.entries(HARNESSES)) {
    caches[which] = join(work, `${which}.cache`);
    job(dist, dir, null, { EVIGRADE_CACHE_OUT: caches[which] });
    const passed = (job(dist, dir, caches[which]).frames.match(/"status":"passed"/g) ?? []).length;
    if (passed !== CASES.length) throw new Error(`${which} harness: ${passed}/${CASES.length} passed on ${name}`);
  }
  const floorSrc = `const { expect } = require(${JSON.stringify(require.resolve('expect'))});\nconst { isLeap } = require(${JSON.stringify(join(dir, 'leap.js'))});\n${CASES.map(([y, r]) => `expect(isLeap(${y})).toBe(${r});`).join('\n')}\n`;
  const t = { floor: [], before: [], after: [] };
  for (let i = 0; i < RUNS; i++) {
    t.floor.push(cpuMs(['-e', floorSrc]).ms);
    for (const [which, dist] of Object.entries(HARNESSES)) t[which].push(job(dist, dir, caches[which]).ms);
  }
  rows.push([name, median(t.floor), median(t.before), median(t.after)]);
}
rmSync(work, { recursive: true, force: true });

const f = (ms) => `${ms.toFixed(1).padStart(6)} ms`;
console.log(
  `CPU per JavaScript job, before (${BASE}) and after issue 30's closed realm, beside the floor (bare node + expect); median of ${RUNS} interleaved runs, boot.cjs with its code cache`,
);
for (const [name, floor, before, after] of rows) {
  console.log(
    `  ${name.padEnd(26)} floor ${f(floor)}   before ${f(before)} (${(before / floor).toFixed(2)}x)   after ${f(after)} (${(after / floor).toFixed(2)}x)   after − before ${(after - before).toFixed(1)} ms`,
  );
}
