// Start-up is paid only for what a command uses: the packages each command loads, recorded from a real CLI
// process by a preloaded module (tests/fakes/record-loads.mjs). Speed itself is measured in bench/, never here.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { firstBackend, ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const RECORDER = pathToFileURL(join(ROOT, 'tests', 'fakes', 'record-loads.mjs')).href;
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
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
 * whether it ran the grader's bundle (scripts/build-cli-bundle.mjs: zod is inside it, so it shows as no package).
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
        const bundled = urls.some((u) => u.endsWith('/dist/bundle/main.js'));
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
      'evigrade: error USAGE: unknown command "frobnicate" (commands: grade, check-rubric, sandbox, report, verify, serve, worker, history)',
      [],
      true,
    ]);
  });
});
