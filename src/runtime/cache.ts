import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Everything the grader keeps between runs, one folder per kind under one root (docs/performance.md, "The cache").
 * The grader's own: no job can reach it. Every entry is keyed by all that shapes it, so an entry of another build,
 * node or rubric is never taken for this one's, and a damaged or refused entry is made again: removing the whole root
 * only costs the next run its warm-ups.
 */
export const CACHE_LAYOUT = {
  snapshot:
    "the harness's V8 start-up snapshots, by root file system and node flags; beside each, a `started-` mark once it has started the harness under this node binary",
  'code-cache':
    "the harness's V8 code cache for jobs started from boot.cjs, by root file system, node flags and warm-up job",
  collect: "each rubric's collected tests, by rubric hash, harness hash, node version and backend",
  rewrite:
    "the CommonJS rewrite of each ES-module test file, by the rewriter's source, acorn's version, the file's name and source",
  lint: "the lint threads' V8 code cache for the ESLint bundle, by the bundle's hash, node's version and flags",
  cli: "the CLI script's V8 code cache, one per command, by the script's hash, size, inode and time, node's version and flags",
  python:
    "the Python jobs' root file system with the harness's bytecode, named by the `stat`s of all it is made from, the libraries `ldd` named listed beside it",
  work: "the unshare backend's work directories (job roots hard-linked from `python/`) where /tmp is another file system than the cache's; removed when their grader ends",
  reference:
    'an empty file per rubric whose reference passed its tests, by rubric and reference hash, under the harness hash and node version that graded it',
  judge:
    "the judge's answers, one file per key (judge, model, prompt version and hash, code, evidence and rubric hashes); `judge.cache_dir` puts them elsewhere",
} as const;

export type CacheKind = keyof typeof CACHE_LAYOUT;

/** EVIGRADE_CACHE_DIR, else $XDG_CACHE_HOME/evigrade, else ~/.cache/evigrade. Read at each call: tests and benches set it. */
export const cacheRoot = (): string =>
  process.env.EVIGRADE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'evigrade');

/** The folder of one kind of cache. */
export const cacheDir = (kind: CacheKind): string => join(cacheRoot(), kind);
