#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { graderCacheDir } from '../dist/adapters/sandbox/cache-dir.js';

// Most commands live for seconds: at V8's default budget, TurboFan spends a background thread optimising
// functions (ESLint's, zod's, our own) the run ends before they pay back. 8× the default budget cut the grader's own
// CPU on a class of 24 by a fifth to a quarter; 32× took another 1–3 % off classes of 120 and 240 (ESLint's code in
// the lint thread is the longest-running) and changed nothing on 24 (bench/README.md, eighth pass). Code that stays
// hot, as in `serve`, is optimised a little later. Jobs keep their own budget (adapters/sandbox/process-runner.ts).
// WebAssembly (ruff and tree-sitter in the lint threads) stays on Liftoff, V8's baseline compiler, unless a function
// runs very hot: at the default tiering budget TurboFan recompiled ruff's 10 MB module in the background, ≈ 5 s of
// CPU a grader run (a Python class of 24 paid ≈ 0.2 s per submission for it), where Liftoff's code lints a file in a
// few ms (bench/README.md, issue 36). TurboFan stays available (unlike --liftoff-only).
// Set before any of our modules load.
const FLAGS = `--interrupt-budget=${32 * 67_584} --wasm-tiering-budget=2000000000`;
setFlagsFromString(FLAGS);

// The exits of a run that did its work (README's table): done, some grader errors, a failing reference, differences.
const WORK_DONE = new Set([0, 1, 3, 6]);
const SCRIPT = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const argv = process.argv.slice(2);
const asksHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h');

/**
 * The grader as one script (scripts/build-cli-bundle.mjs) compiled with the V8 code cache this command left the first
 * time it ran (one submission ≈ 309 → 274 ms of CPU; bench/README.md, ninth pass).
 * One cache per command, since each holds the functions its run compiled; kept in the grader's cache directory (its
 * own, never reachable from a job) by the script's SHA-256 from the build, its size, inode and modification time,
 * node's version and flags: V8 checks only a cache's length and flags against the source, so a rebuilt script must
 * never meet an old cache. Written at exit, once, when there was none or V8 refused it; a cache that cannot be read
 * or written only costs a compile. Without the script (a checkout whose build stopped before bundling), the compiled
 * modules one by one.
 */
function loadGrader() {
  if (!existsSync(SCRIPT)) return import('../dist/main.js');
  const source = readFileSync(SCRIPT, 'utf8');
  const { cacheFile, command } = codeCacheFile();
  let cachedData;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: SCRIPT,
    ...(cachedData ? { cachedData } : {}),
  });
  // A command's cache is made only by a run that did its work: one stopped by a usage error (an empty folder, a bad
  // flag) or an unavailable sandbox holds little more than the argument parser, and would stand for the build.
  const worthKeeping = (code) => command === 'help' || WORK_DONE.has(code);
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected))
    process.once('exit', (code) => worthKeeping(code) && keep(cacheFile, () => script.createCachedData(), command));
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(SCRIPT), mod, SCRIPT, dirname(SCRIPT));
  return Promise.resolve(mod.exports);
}

/** Where this run's code cache is kept: one per command, made by a run of it; help texts and unknown commands share one. */
function codeCacheFile() {
  try {
    const { sha256, commands } = JSON.parse(readFileSync(join(dirname(SCRIPT), 'main.json'), 'utf8'));
    const command = !asksHelp && commands.includes(argv[0]) ? argv[0] : 'help';
    const s = statSync(SCRIPT);
    const key = [sha256, s.size, s.ino, s.mtimeMs, process.version, process.execArgv.join(' '), FLAGS, command];
    const name = `${command}-${createHash('sha256').update(key.join('\0')).digest('hex').slice(0, 24)}.bin`;
    return { cacheFile: join(graderCacheDir(), 'cli', name), command };
  } catch {
    return { cacheFile: null, command: null }; // no build record: compiled without a cache
  }
}

/** Writes the cache atomically, and drops the command's caches of other builds (each ≈ 1 MB, never used again). */
function keep(file, make, command) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, make(), { mode: 0o600 });
    renameSync(tmp, file);
    for (const other of readdirSync(dirname(file)))
      if (other.startsWith(`${command}-`) && other.endsWith('.bin') && other !== basename(file))
        rmSync(join(dirname(file), other), { force: true });
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing to remove
    }
  }
}

loadGrader()
  .then((m) => m.run(argv))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(err?.stack ?? String(err));
      process.exitCode = 70;
    },
  );
