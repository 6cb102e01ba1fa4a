import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSubmission } from '../../src/adapters/fs/intake.js';
import { LimitsSchema } from '../../src/domain/rubric.js';

const limits = LimitsSchema.parse({ max_files: 4, max_bytes: 2000 });
function student(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-intake-'));
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}
const rejectCode = async (path: string): Promise<[string, string]> => {
  try {
    await readSubmission(path, 'stu', limits, './leap');
    return ['accepted', ''];
  } catch (e) {
    const err = e as { code: string; message: string };
    return [err.code, err.message];
  }
};

describe('intake', () => {
  it('reads a folder of UTF-8 files, hashing each, keeping configs and node_modules out', async () => {
    const dir = student({
      'leap.js': 'export const isLeap = () => true;\n',
      'lib/util.js': '// ü\n',
      'package.json': '{}',
      'node_modules/x/index.js': 'x',
      '.npmrc': 'token=abc',
    });
    const sub = await readSubmission(dir, 'stu', limits, './leap');
    expect(sub.files.map((f) => [f.path, f.bytes])).toEqual([
      ['leap.js', 34],
      ['lib/util.js', 6],
    ]);
    expect(sub.ignored).toEqual(['.npmrc', 'node_modules', 'package.json']);
    expect(sub.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('renames a single-file submission to the entry file', async () => {
    const dir = student({ 'bob.js': 'module.exports = {};' });
    const sub = await readSubmission(join(dir, 'bob.js'), 'bob', limits, './leap');
    expect(sub.files.map((f) => f.path)).toEqual(['leap.js']);
  });

  it('names the student\'s own file when a renamed single file is refused (issue 16: not "leap.js is binary")', async () => {
    const dir = student({ 'photo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]) });
    await expect(readSubmission(join(dir, 'photo.png'), 'photo', limits, './leap')).rejects.toThrow(
      'submission "photo": "photo.png" (graded as leap.js) is binary (contains NUL bytes)',
    );
  });

  it.each([
    [
      'a symlink',
      (d: string) => symlinkSync('/etc/passwd', join(d, 'leak.js')),
      'INTAKE_SYMLINK',
      '"leak.js" is a symbolic link',
    ],
    ['a hardlink', (d: string) => linkSync(join(d, 'leap.js'), join(d, 'twin.js')), 'INTAKE_HARDLINK', 'hard links'],
    [
      'a FIFO',
      (d: string) => execFileSync('mkfifo', [join(d, 'pipe.js')]),
      'INTAKE_SPECIAL_FILE',
      '"pipe.js" is a device, FIFO or socket',
    ],
    [
      'a binary file',
      (d: string) => writeFileSync(join(d, 'blob.js'), Buffer.from([0x61, 0, 0x62])),
      'INTAKE_BINARY',
      '"blob.js" is binary',
    ],
    [
      'invalid UTF-8',
      (d: string) => writeFileSync(join(d, 'latin1.js'), Buffer.from([0x63, 0xe9, 0x20])),
      'INTAKE_NOT_UTF8',
      '"latin1.js" is not valid UTF-8',
    ],
    [
      'a native addon',
      (d: string) => writeFileSync(join(d, 'evil.node'), 'x'),
      'INTAKE_FORBIDDEN_FILE',
      'native binary or addon',
    ],
    [
      'too many files',
      (d: string) => {
        for (let i = 0; i < 5; i++) writeFileSync(join(d, `f${i}.js`), '');
      },
      'INTAKE_TOO_MANY_FILES',
      'more than 4 files',
    ],
    [
      'too many bytes',
      (d: string) => writeFileSync(join(d, 'big.js'), 'x'.repeat(2500)),
      'INTAKE_TOO_LARGE',
      'more than 2000 bytes',
    ],
    [
      'a bidi control in a name',
      (d: string) => writeFileSync(join(d, 'a\u202Egnp.js'), ''),
      'INTAKE_PATH_INVALID',
      'not allowed',
    ],
    ['a newline in a name', (d: string) => writeFileSync(join(d, 'a\nb.js'), ''), 'INTAKE_PATH_INVALID', 'not allowed'],
    ['a leading dash', (d: string) => writeFileSync(join(d, '-rf.js'), ''), 'INTAKE_PATH_INVALID', 'not allowed'],
  ])('rejects %s with a clear error', async (_what, make, code, text) => {
    const dir = student({ 'leap.js': 'ok' });
    make(dir);
    const [got, message] = await rejectCode(dir);
    expect(got).toBe(code);
    expect(message).toContain('submission "stu"');
    expect(message).toContain(text);
  });

  it('rejects a folder without the entry file, naming the file expected and the files found (issue 16)', async () => {
    expect(await rejectCode(student({ 'Leap.js': 'x', 'notes.txt': 'hi' }))).toEqual([
      'INTAKE_ENTRY_MISSING',
      'submission "stu": the rubric\'s entry "./leap" needs leap.js at the top of the submission; found Leap.js, notes.txt',
    ]);
    expect((await rejectCode(student({ 'src/leap.js': 'x' })))[1]).toContain(
      'needs leap.js at the top of the submission; found src/leap.js',
    );
    for (const ok of ['leap.mjs', 'leap/index.js'])
      expect((await rejectCode(student({ [ok]: 'x' })))[0]).toBe('accepted');
    const ts = student({ 'leap.ts': 'x' });
    expect((await readSubmission(ts, 'stu', limits, './leap', 'typescript')).files.map((f) => f.path)).toEqual([
      'leap.ts',
    ]);
    await expect(readSubmission(student({ 'main.ts': 'x' }), 'stu', limits, './leap', 'typescript')).rejects.toThrow(
      'needs leap.ts',
    );
  });

  it('rejects a submission that is itself a symlink, and an empty one', async () => {
    const dir = student({ 'x/leap.js': 'ok' });
    symlinkSync(join(dir, 'x'), join(dir, 'link'));
    expect((await rejectCode(join(dir, 'link')))[0]).toBe('INTAKE_SYMLINK');
    expect((await rejectCode(student({ 'package.json': '{}' })))[0]).toBe('INTAKE_EMPTY');
  });
});
