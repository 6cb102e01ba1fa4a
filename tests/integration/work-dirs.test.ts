// A grader killed before its exit handler ran leaves its sandbox work directory (root file systems, job
// directories) behind; the next grader removes those whose process is gone, and nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeWorkDir, sweepStaleWorkDirs } from '../../src/adapters/sandbox/work-dirs.js';

const parent = mkdtempSync(join(tmpdir(), 'evigrade-sweep-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A pid that ran and is gone. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('stale sandbox work directories', () => {
  it('removes those of graders that are gone, keeps live ones and anything not named as ours, follows no link', async () => {
    const outside = join(parent, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'not ours to delete');
    const dead = deadPid();
    const stale = join(parent, `evigrade-${dead}-abc123`);
    mkdirSync(join(stale, 'rootfs-x', 'usr', 'bin'), { recursive: true });
    writeFileSync(join(stale, 'rootfs-x', 'usr', 'bin', 'node'), 'a copy of node');
    // A link in a stale tree is removed as a link: what it points to stays.
    symlinkSync(outside, join(stale, 'link'));
    const live = makeWorkDir(parent);
    expect(live).toMatch(new RegExp(`evigrade-${process.pid}-[A-Za-z0-9]{6}$`));
    const other = join(parent, `evigrade-snapshot-${dead}`); // another of our temporary names: never swept
    mkdirSync(other);
    const file = join(parent, `evigrade-${dead}-file01`); // not a directory
    writeFileSync(file, '');

    expect(await sweepStaleWorkDirs(parent)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(parent).sort()).toEqual(
      [`evigrade-${dead}-file01`, `evigrade-snapshot-${dead}`, live.slice(parent.length + 1), 'outside'].sort(),
    );
    expect(existsSync(join(outside, 'keep.txt'))).toBe(true);
  });

  it('removes at most its limit in one call', async () => {
    const dead = deadPid();
    for (const s of ['aaaaaa', 'bbbbbb', 'cccccc']) mkdirSync(join(parent, `evigrade-${dead}-${s}`));
    expect(await sweepStaleWorkDirs(parent, 2)).toBe(2);
    expect(await sweepStaleWorkDirs(parent, 2)).toBe(1);
    expect(await sweepStaleWorkDirs(parent, 2)).toBe(0);
  });
});
