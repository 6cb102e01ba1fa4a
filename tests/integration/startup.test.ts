// Start-up is paid only for what a command uses: the packages each command loads, recorded from a real CLI
// process by a preloaded module (tests/fakes/record-loads.mjs). Speed itself is measured in bench/, never here.
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { firstBackend, ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const RECORDER = pathToFileURL(join(ROOT, 'tests', 'fakes', 'record-loads.mjs')).href;
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const UNBUNDLED = pathToFileURL(join(ROOT, 'dist', 'main.js')).href;
/** Packages no command loads unless it needs them. */
const HEAVY = [
  'typescript',
  '@typescript-eslint/typescript-estree',
  '@typescript-eslint/parser',
  'eslint',
  'fastify',
  '@fastify/rate-limit',
  'bullmq',
  'ioredis',
  'dockerode',
  'tar-stream',
  '@huggingface/inference',
  'cli-progress',
  'expect',
  'ses',
];

/**
 * The npm packages whose code a CLI run loads (reading a package.json alone does not count), in any thread, and
 * whether it ran the grader's bundle (scripts/build-cli-bundle.mjs: zod, yaml and pino are inside it, so they show as
 * no package).
 */
function packagesLoaded(
  args: string[],
): Promise<{ code: number; packages: string[]; stderr: string; bundled: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-loads-'));
  const log = join(dir, 'loads.txt');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', RECORDER, BIN, ...args],
      { env: { ...process.env, EVIGRADE_LOAD_LOG: log, CI: 'true' }, timeout: 120_000 },
      (err, _stdout, stderr) => {
        let urls: string[] = [];
        try {
          urls = readFileSync(log, 'utf8').split('\n');
        } catch {
          // nothing recorded
        }
        const packages = new Set(
          urls
            .filter((u) => !u.endsWith('/package.json'))
            .flatMap((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []),
        );
        rmSync(dir, { recursive: true, force: true });
        // bin/evigrade.js compiles the bundle itself (vm.Script, with its code cache): no loader sees it, but without
        // it the grader's compiled modules load one by one, from dist/main.js on.
        const bundled = urls.includes(pathToFileURL(BIN).href) && !urls.includes(UNBUNDLED);
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          packages: [...packages].sort(),
          stderr,
          bundled,
        });
      },
    );
  });
}

let backend: ProcessBackendId;
beforeAll(async () => {
  backend = await firstBackend();
});

describe('start-up loads only what the command uses', () => {
  it('--help loads no package at all', async () => {
    expect(await packagesLoaded(['--help'])).toEqual({ code: 0, packages: [], stderr: '', bundled: true });
  });

  it('grade of a JavaScript rubric (no judge) whose one submission is rejected at intake loads no linter, TypeScript, HTTP stack, queue, Docker client or judge client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-startup-'));
    mkdirSync(join(dir, 'submissions'));
    symlinkSync('/etc/passwd', join(dir, 'submissions', 'sneaky.js'));
    const r = await packagesLoaded([
      'grade',
      join(dir, 'submissions'),
      '--rubric',
      LEAP,
      '--out',
      join(dir, 'out'),
      '--no-llm',
      '--sandbox',
      backend,
    ]);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'sneaky.json'), 'utf8')) as { status: string };
    rmSync(dir, { recursive: true, force: true });
    expect([r.code, report.status, r.bundled], r.stderr).toEqual([0, 'rejected', true]);
    expect(r.packages.filter((p) => HEAVY.includes(p))).toEqual([]);
    // What grading does need (the rubric's YAML parser, the logger, the schemas' zod) is inside the bundle: node
    // resolves and compiles none of their ≈ 110 files at start-up (build-cli-bundle.mjs).
    expect(['pino', 'yaml', 'zod'].filter((p) => r.packages.includes(p))).toEqual([]);
  }, 120_000);

  it('unknown commands still fail with the usage error, loading only the error table', async () => {
    const r = await packagesLoaded(['frobnicate']);
    expect([r.code, r.stderr.trim(), r.packages, r.bundled]).toEqual([
      2,
      'evigrade: error USAGE: unknown command "frobnicate" (commands: grade, check-rubric, audit, sandbox, report, verify, serve, worker, history, override)',
      [],
      true,
    ]);
  });
});

describe('the bundle’s V8 code cache (bin/evigrade.js)', () => {
  const run = (cache: string, args: string[]): Promise<{ code: number; stdout: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...process.env, EVIGRADE_CACHE_DIR: cache, CI: 'true' }, timeout: 120_000 },
        (err, stdout) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
  const kept = (cache: string): string[] => {
    try {
      return readdirSync(join(cache, 'cli')).sort();
    } catch {
      return [];
    }
  };

  it('is kept per command (not from a usage error), one for help texts, used as it is, and made again when V8 refuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-codecache-'));
    const cache = join(dir, 'cache');
    mkdirSync(join(dir, 'submissions'));
    symlinkSync('/etc/passwd', join(dir, 'submissions', 'sneaky.js'));
    const grade = ['grade', join(dir, 'submissions'), '--rubric', LEAP, '--out', join(dir, 'out'), '--no-llm'].concat([
      '--sandbox',
      backend,
      '--force',
    ]);
    try {
      // Help texts and unknown commands share one cache.
      expect((await run(cache, ['--help'])).code).toBe(0);
      expect((await run(cache, ['grade', '--help'])).code).toBe(0);
      expect((await run(cache, ['frobnicate'])).code).toBe(2);
      expect(kept(cache)).toEqual([expect.stringMatching(/^help-[0-9a-f]{24}\.bin$/)]);
      // A usage error of a command (an empty folder) makes none of the command's own.
      mkdirSync(join(dir, 'empty'));
      const empty = await run(cache, ['grade', join(dir, 'empty'), '--rubric', LEAP, '--out', join(dir, 'o2')]);
      expect([empty.code, kept(cache).length]).toEqual([2, 1]);

      // What an older build kept for the command is dropped when this build's is written.
      writeFileSync(join(cache, 'cli', `grade-${'0'.repeat(24)}.bin`), 'an older build’s cache');
      expect((await run(cache, grade)).code).toBe(0);
      const file = kept(cache).find((f) => f.startsWith('grade-'));
      expect(kept(cache)).toEqual([
        expect.stringMatching(/^grade-[0-9a-f]{24}\.bin$/),
        expect.stringMatching(/^help-/),
      ]);
      const path = join(cache, 'cli', file as string);
      const first = statSync(path);
      expect(first.size).toBeGreaterThan(100_000);

      // A second run starts from it: V8 accepts it, so it is not written again.
      expect((await run(cache, grade)).code).toBe(0);
      expect([kept(cache).length, statSync(path).mtimeMs, statSync(path).ino]).toEqual([2, first.mtimeMs, first.ino]);

      // A damaged cache is refused by V8: the run still grades, and leaves a good cache in its place.
      writeFileSync(path, Buffer.alloc(4096, 7));
      expect((await run(cache, grade)).code).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'sneaky.json'), 'utf8')) as { status: string };
      expect(report.status).toBe('rejected');
      expect(statSync(path).size).toBeGreaterThan(100_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
