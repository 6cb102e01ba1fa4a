#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { cacheDir } from '../dist/runtime/cache.js';
import { runCachedScript } from '../dist/runtime/code-cache.js';
import { GRADER_V8_FLAGS } from '../dist/runtime/node-flags.js';

// The grader's V8 flags (runtime/node-flags.ts says why), set before the grader itself loads.
setFlagsFromString(GRADER_V8_FLAGS);

// The exits of a run that did its work (README's table): done, some grader errors, a failing reference, differences.
const WORK_DONE = new Set([0, 1, 3, 6]);
const SCRIPT = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
const argv = process.argv.slice(2);
const asksHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h');

/**
 * The grader as one script (scripts/build-cli-bundle.mjs) run from the V8 code cache this command left the first
 * time it ran (runtime/code-cache.ts; one submission ≈ 309 → 274 ms of CPU; bench/README.md, ninth pass).
 * One cache per command, since each holds the functions its run compiled; kept in the grader's cache (`cli/`) by the
 * script's SHA-256 from the build, its size, inode and modification time, node's version and flags: V8 checks only a
 * cache's length and flags against the source, so a rebuilt script must never meet an old cache. Written at exit,
 * once, when there was none or V8 refused it. Without the script (a checkout whose build stopped before bundling),
 * the compiled modules one by one.
 */
function loadGrader() {
  if (!existsSync(SCRIPT)) return import('../dist/main.js');
  const { cacheFile, command } = codeCacheFile();
  const grader = runCachedScript(SCRIPT, readFileSync(SCRIPT, 'utf8'), cacheFile);
  // A command's cache is made only by a run that did its work: one stopped by a usage error (an empty folder, a bad
  // flag) or an unavailable sandbox holds little more than the argument parser, and would stand for the build.
  const worthKeeping = (code) => command === 'help' || WORK_DONE.has(code);
  process.once('exit', (code) => worthKeeping(code) && grader.keep() && dropOtherBuilds(cacheFile, command));
  return Promise.resolve(grader.exports);
}

/** Where this run's code cache is kept: one per command, made by a run of it; help texts and unknown commands share one. */
function codeCacheFile() {
  try {
    const { sha256, commands } = JSON.parse(readFileSync(join(dirname(SCRIPT), 'main.json'), 'utf8'));
    const command = !asksHelp && commands.includes(argv[0]) ? argv[0] : 'help';
    const s = statSync(SCRIPT);
    const key = [
      sha256,
      s.size,
      s.ino,
      s.mtimeMs,
      process.version,
      process.execArgv.join(' '),
      GRADER_V8_FLAGS,
      command,
    ];
    const name = `${command}-${createHash('sha256').update(key.join('\0')).digest('hex').slice(0, 24)}.bin`;
    return { cacheFile: join(cacheDir('cli'), name), command };
  } catch {
    return { cacheFile: null, command: null }; // no build record: compiled without a cache
  }
}

/** Drops the command's caches of other builds once its own is written (each ≈ 1 MB, never used again). */
function dropOtherBuilds(file, command) {
  try {
    for (const other of readdirSync(dirname(file)))
      if (other.startsWith(`${command}-`) && other.endsWith('.bin') && other !== basename(file))
        rmSync(join(dirname(file), other), { force: true });
  } catch {
    // what cannot be removed is only disk
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
