// The set-up command (scripts/setup.sh, the README's first command) is the one list of Debian packages: CI calls
// it, it installs every tool the tests start, and a test that finds one missing names the package.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedis } from '../fakes/redis.js';
import { TOOLS } from '../fakes/tools.js';
import { ROOT } from '../helpers.js';

const SETUP = join(ROOT, 'scripts', 'setup.sh');
const listed = (): string[] => execFileSync('bash', [SETUP, '--list'], { encoding: 'utf8' }).trim().split('\n');

describe('scripts/setup.sh', () => {
  it('lists the package of every tool the tests start, docker.io only when asked', () => {
    const packages = listed();
    expect(
      Object.values(TOOLS)
        .map((t) => t.pkg)
        .filter((p) => !packages.includes(p)),
    ).toEqual([]);
    expect(packages).not.toContain('docker.io');
  });

  it('refuses an option it does not know, naming it (exit 2), before installing anything', () => {
    const r = spawnSync('bash', [SETUP, '--with-dokcer'], { encoding: 'utf8' });
    expect([r.status, r.stderr.trim()]).toEqual([
      2,
      "setup: unknown option '--with-dokcer' (see: bash scripts/setup.sh --help)",
    ]);
  });

  it('is what CI installs with: .ci/run calls it and installs no package of its own', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain('bash scripts/setup.sh --with-docker --no-samples');
    expect(ci).not.toMatch(/apt-get/);
  });

  it("is the README quick start's first command, npm test its second", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const quick = /## Quick start[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(
      quick
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/\s+#.*$/, '')),
    ).toEqual(['bash scripts/setup.sh', 'npm test']);
  });
});

describe('a missing service is named as missing, with its package', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('redis-server: "not installed: apt-get install redis-server", not "did not answer on port N"', async () => {
    process.env.PATH = mkdtempSync(join(tmpdir(), 'empty-path-'));
    await expect(startRedis()).rejects.toThrow(
      'redis-server is not installed: apt-get install redis-server (bash scripts/setup.sh installs every package the tests use)',
    );
  });
});
