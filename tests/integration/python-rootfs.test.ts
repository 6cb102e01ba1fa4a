// The Python root kept between grader runs (issue 36): found again without `ldd` or hard links, made anew when the
// harness changes, and holding the harness's bytecode, unchecked-hash (jobs run python3 -B under a read-only root).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePythonRootfs } from '../../src/adapters/sandbox/python-rootfs.js';
import { availability } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import { spawnEvigrade } from '../fakes/worker-proc.js';
import { ROOT } from '../helpers.js';

const work = mkdtempSync(join(tmpdir(), 'evigrade-pyroot-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const hasPytest = spawnSync('/usr/bin/python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;

/** A copy of the harness folders (sandbox/dist beside sandbox/python), so one of its files can change. */
function harnessCopy(name: string): string {
  const dir = join(work, name);
  cpSync(join(ROOT, 'sandbox', 'python'), join(dir, 'python'), {
    recursive: true,
    filter: (src) => !src.includes('__pycache__'),
  });
  cpSync(join(ROOT, 'sandbox', 'dist'), join(dir, 'dist'), { recursive: true });
  return join(dir, 'dist');
}

describe.skipIf(!hasPytest)('the Python root kept between runs', () => {
  it('is found again by its name, made anew for another harness, and carries unchecked-hash bytecode', async () => {
    const base = join(work, 'cache');
    const harness = harnessCopy('a');
    const first = await ensurePythonRootfs(base, harness);
    // A later run (a fresh call) finds the same tree; the libraries `ldd` named are listed beside it.
    expect(await ensurePythonRootfs(base, harness)).toBe(first);
    const listed = readdirSync(base).filter((f) => f.endsWith('.libs'));
    expect(listed).toHaveLength(1);
    expect(readFileSync(join(base, listed[0] as string), 'utf8')).toMatch(/libc\.so/);
    const pyc = readdirSync(join(first, 'evigrade', 'py', '__pycache__')).sort();
    expect(pyc.filter((f) => /^(boot|host|plugin|rpc|student|wire)\.cpython-\d+\.pyc$/.test(f))).toHaveLength(6);
    const host = readFileSync(
      join(first, 'evigrade', 'py', '__pycache__', pyc.find((f) => f.startsWith('host.')) as string),
    );
    expect(host.readUInt32LE(4)).toBe(1); // PEP 552 flags: hash-based, source not checked
    writeFileSync(join(harness, '..', 'python', 'owntime.py'), '# changed\n', { flag: 'a' });
    const second = await ensurePythonRootfs(base, harness);
    expect(second).not.toBe(first);
    expect(readFileSync(join(second, 'evigrade', 'py', 'owntime.py'), 'utf8')).toMatch(/# changed\n$/);
  }, 180_000);
});

// A tmpfs /tmp (Debian 13, Arch, Fedora) is another file system than the cache's: the unshare backend's job roots,
// hard-linked from the kept Python root, must then be made beside the cache (work-dirs.ts). /dev/shm is such a tmpfs.
const shm = spawnSync('stat', ['-c', '%d', '/dev/shm', tmpdir()], { encoding: 'utf8' }).stdout.split('\n');
const otherFs = shm[0] !== '' && shm[0] !== shm[1];
const unshareOk = (await availability('unshare')).ok;
describe.skipIf(!hasPytest || !unshareOk || !otherFs)('unshare with /tmp on another file system than the cache', () => {
  it('grades Python submissions (every job failed with EXDEV when the job roots were made in /tmp)', async () => {
    const tmp = mkdtempSync(join('/dev/shm', 'evigrade-tmpfs-'));
    const out = join(work, 'tmpfs-out');
    // The cache where a user's is (under the home directory): /tmp may itself be a tmpfs mounted nodev, where no job
    // root's device node opens.
    const cache = mkdtempSync(join(homedir(), '.cache', 'evigrade-tmpfs-test-'));
    try {
      const p = spawnEvigrade(
        [
          'grade',
          join(ROOT, 'submissions', 'bank-account'),
          '--rubric',
          join(ROOT, 'rubrics', 'bank-account', 'rubric.yaml'),
          '--out',
          out,
          '--sandbox',
          'unshare',
          '--no-llm',
        ],
        { TMPDIR: tmp, EVIGRADE_CACHE_DIR: cache },
      );
      expect((await p.exited).code).toBe(0);
      const ana = JSON.parse(readFileSync(join(out, 'correct-ana.json'), 'utf8')) as Report;
      expect([ana.status, ana.sandbox.backend, ana.tests.every((t) => t.status === 'passed')]).toEqual([
        'graded',
        'unshare',
        true,
      ]);
      // The work directory went beside the cache, and went when the grader ended.
      expect(readdirSync(join(cache, 'work'))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  }, 300_000);
});
