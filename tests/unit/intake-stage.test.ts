// The pure intake stage (stages/intake/intake.ts) and submission names (stages/intake/intake-names.ts): every rule with its
// exact code and message, the same answer for a folder and a file map, and names kept beside safe ids.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSubmission } from '../../src/adapters/fs/intake.js';
import { LimitsSchema } from '../../src/domain/rubric.js';
import { GENERATED_ID, SAFE_ID } from '../../src/domain/submission.js';
import { hiddenChars } from '../../src/domain/text.js';
import { intake, mapEntries, type IntakeEntry } from '../../src/stages/intake/intake.js';
import { nameProblem, nameSubmission, nameSubmissions, notASubmission } from '../../src/stages/intake/intake-names.js';
import { sha256 } from '../../src/util/hash.js';
import { ROOT } from '../helpers.js';

const limits = LimitsSchema.parse({ max_files: 3, max_bytes: 100 });
const rules = { limits, entry: './leap', language: 'javascript' };
const OK: IntakeEntry = { path: 'leap.js', kind: 'file', data: 'ok' };
const outcome = (entries: IntakeEntry[]): [string, string] => {
  try {
    const sub = intake('stu', entries, rules);
    return ['accepted', sub.files.map((f) => f.path).join(',')];
  } catch (e) {
    const err = e as { code: string; message: string };
    return [err.code, err.message];
  }
};

describe('intake stage: one rule set for every way in', () => {
  it.each<[string, IntakeEntry[], string, string]>([
    [
      'an absolute path',
      [OK, { path: '/etc/x.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "/etc/x.js" must be relative, with "/" separators',
    ],
    [
      'a backslash',
      [OK, { path: 'a\\b.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a\\\\b.js" must be relative, with "/" separators',
    ],
    [
      'a NUL in a path',
      [OK, { path: 'a\0.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a\\u0000.js" must be relative, with "/" separators',
    ],
    [
      'a climb',
      [OK, { path: 'a/../../x.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a/../../x.js" escapes the submission or has an empty segment',
    ],
    [
      'an empty segment',
      [OK, { path: 'a//x.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a//x.js" escapes the submission or has an empty segment',
    ],
    [
      'a bidi override in a file name',
      [OK, { path: 'a\u202Egnp.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a\u202Egnp.js" contains characters that are not allowed',
    ],
    [
      'a leading dash',
      [OK, { path: '-rf.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "-rf.js" contains characters that are not allowed',
    ],
    [
      'ten levels of folders',
      [OK, { path: 'a/b/c/d/e/f/g/h/i/x.js', kind: 'file', data: '' }],
      'INTAKE_PATH_INVALID',
      'path "a/b/c/d/e/f/g/h/i/x.js" is nested deeper than 8 folders',
    ],
    [
      'a folder a reader did not enter',
      [OK, { path: 'a/b/c/d/e/f/g/h/i', kind: 'deep' }],
      'INTAKE_PATH_INVALID',
      '"a/b/c/d/e/f/g/h/i" is nested deeper than 8 folders',
    ],
    ['a symlink', [OK, { path: 'leak.js', kind: 'symlink' }], 'INTAKE_SYMLINK', '"leak.js" is a symbolic link'],
    [
      'a hard link (count known)',
      [OK, { path: 'twin.js', kind: 'hardlink', links: 2 }],
      'INTAKE_HARDLINK',
      '"twin.js" has 2 hard links',
    ],
    [
      'a hard link from an archive',
      [OK, { path: 'twin.js', kind: 'hardlink', note: '(x/twin.js in the download)' }],
      'INTAKE_HARDLINK',
      '"twin.js" has more than one hard link (x/twin.js in the download)',
    ],
    [
      'a FIFO',
      [OK, { path: 'pipe.js', kind: 'special' }],
      'INTAKE_SPECIAL_FILE',
      '"pipe.js" is a device, FIFO or socket',
    ],
    [
      'a native addon',
      [OK, { path: 'evil.node', kind: 'file', data: 'x' }],
      'INTAKE_FORBIDDEN_FILE',
      '"evil.node" is a native binary or addon',
    ],
    [
      'NUL bytes',
      [OK, { path: 'blob.js', kind: 'file', data: Buffer.from([0x61, 0, 0x62]) }],
      'INTAKE_BINARY',
      '"blob.js" is binary (contains NUL bytes)',
    ],
    [
      'NUL in text',
      [OK, { path: 'blob.js', kind: 'file', data: 'a\0b' }],
      'INTAKE_BINARY',
      '"blob.js" is binary (contains NUL bytes)',
    ],
    [
      'invalid UTF-8',
      [OK, { path: 'latin1.js', kind: 'file', data: Buffer.from([0x63, 0xe9, 0x20]) }],
      'INTAKE_NOT_UTF8',
      '"latin1.js" is not valid UTF-8 text',
    ],
    [
      'a lone surrogate',
      [OK, { path: 'half.js', kind: 'file', data: 'x\uD800' }],
      'INTAKE_NOT_UTF8',
      '"half.js" is not valid UTF-8 text (lone surrogate)',
    ],
    [
      'a file over the byte limit',
      [OK, { path: 'big.js', kind: 'file', size: 5000 }],
      'INTAKE_TOO_LARGE',
      'more than 100 bytes (at "big.js")',
    ],
    [
      'files over the byte limit together',
      [
        { ...OK, data: 'x'.repeat(60) },
        { path: 'more.js', kind: 'file', data: 'y'.repeat(60) },
      ],
      'INTAKE_TOO_LARGE',
      'more than 100 bytes (at "more.js")',
    ],
    [
      'too many files',
      [OK, ...['a', 'b', 'c'].map((n): IntakeEntry => ({ path: `${n}.js`, kind: 'file', data: '' }))],
      'INTAKE_TOO_MANY_FILES',
      'more than 3 files',
    ],
    [
      'only ignored files',
      [
        { path: 'package.json', kind: 'file', data: '{}' },
        { path: 'node_modules', kind: 'skipped' },
      ],
      'INTAKE_EMPTY',
      'no gradable files',
    ],
    [
      'no entry file',
      [
        { path: 'Leap.js', kind: 'file', data: 'x' },
        { path: 'notes.txt', kind: 'file', data: 'x' },
      ],
      'INTAKE_ENTRY_MISSING',
      'the rubric\'s entry "./leap" needs leap.js at the top of the submission; found Leap.js, notes.txt',
    ],
  ])('rejects %s', (_what, entries, code, message) => {
    expect(outcome(entries)).toEqual([code, `submission "stu": ${message}`]);
  });

  // An entry written with its extension names the same module as without: never "needs leap.py …; found leap.py".
  it.each<[string, string, string[], string]>([
    ['python', './leap.py', ['leap.py'], 'accepted leap.py'],
    ['python', './leap', ['leap.py'], 'accepted leap.py'],
    ['python', './leap.py', ['leap/__init__.py'], 'accepted leap/__init__.py'],
    ['javascript', './leap.js', ['leap.js'], 'accepted leap.js'],
    [
      'javascript',
      './leap.js',
      ['leap/index.js'],
      'INTAKE_ENTRY_MISSING submission "stu": the rubric\'s entry "./leap.js" needs leap.js at the top of the submission; found leap/index.js',
    ],
    ['typescript', './leap.ts', ['leap.ts'], 'accepted leap.ts'],
    [
      'python',
      './leap.py',
      ['solution.py'],
      'INTAKE_ENTRY_MISSING submission "stu": the rubric\'s entry "./leap.py" needs leap.py at the top of the submission; found solution.py',
    ],
  ])('%s entry %s with %j: %s', (language, entry, paths, expected) => {
    const entries = paths.map((path): IntakeEntry => ({ path, kind: 'file', data: 'x = 1' }));
    let got: string;
    try {
      got = `accepted ${intake('stu', entries, { limits, entry, language })
        .files.map((f) => f.path)
        .join(',')}`;
    } catch (e) {
      got = `${(e as { code: string }).code} ${(e as Error).message}`;
    }
    expect(got).toBe(expected);
  });

  it("names the student's own file when a renamed single file is refused, not the entry file", () => {
    const photo: IntakeEntry = {
      path: 'leap.js',
      kind: 'file',
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]),
      label: '"photo.png" (graded as leap.js)',
    };
    expect(outcome([photo])).toEqual([
      'INTAKE_BINARY',
      'submission "stu": "photo.png" (graded as leap.js) is binary (contains NUL bytes)',
    ]);
  });

  it('keeps ignored names out (listed, never read or checked), accepts leap/index.js and keeps the name beside the id', () => {
    const sub = intake(
      'jose-nunez-1',
      [
        { path: 'leap/index.js', kind: 'file', data: 'x' },
        { path: 'node_modules/x/evil.node', kind: 'file', data: Buffer.from([0]) },
        { path: '.git', kind: 'skipped' },
      ],
      rules,
      'José Núñez',
    );
    expect([sub.id, sub.name, sub.files.map((f) => f.path), sub.ignored]).toEqual([
      'jose-nunez-1',
      'José Núñez',
      ['leap/index.js'],
      ['.git', 'node_modules/x/evil.node'],
    ]);
    expect('name' in intake('bob', [OK], rules, 'bob')).toBe(false);
  });

  it('gives a folder and the same files as a map the same submission, hash included (the queue worker re-checks it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-intake-stage-'));
    const files = { 'leap.js': 'a', 'lib.js': 'b', 'lib/x.js': 'c' };
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
    return readSubmission(dir, 'stu', limits, './leap').then((fromDisk) => {
      const fromMap = intake('stu', mapEntries(files), rules);
      expect(fromMap).toEqual(fromDisk);
      expect(fromDisk.files.map((f) => f.path)).toEqual(['leap.js', 'lib/x.js', 'lib.js']);
    });
  });

  it('stops reading a folder at the limit: a file larger than the whole budget is never read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-intake-big-'));
    writeFileSync(join(dir, 'leap.js'), 'ok');
    writeFileSync(join(dir, 'huge.js'), Buffer.alloc(1 << 20, 0x61));
    await expect(readSubmission(dir, 'stu', limits, './leap')).rejects.toMatchObject({
      code: 'INTAKE_TOO_LARGE',
      message: 'submission "stu": more than 100 bytes (at "huge.js")',
    });
  });
});

describe('submission names', () => {
  const hashed = (slug: string, name: string): string => `_${slug}-${sha256(name.normalize('NFC')).slice(0, 16)}`;

  it('any printable Unicode is a name; the id is the name when it is plain ASCII, else `_`, a slug and a hash', () => {
    const names = ['alice', 'Bob.Smith_2', "o'brien", 'José Núñez', '李雷', 'ana 🎉', '-rf', '=HYPERLINK("x")', 'Zoë'];
    expect(names.map((n) => [n, nameProblem(n)])).toEqual(names.map((n) => [n, null]));
    expect(names.map((n) => nameSubmission(n).id)).toEqual([
      'alice',
      'Bob.Smith_2',
      hashed('o-brien', "o'brien"),
      hashed('jose-nunez', 'José Núñez'),
      hashed('student', '李雷'),
      hashed('ana', 'ana 🎉'),
      hashed('rf', '-rf'),
      hashed('hyperlink-x', '=HYPERLINK("x")'),
      hashed('zoe', 'Zoë'),
    ]);
    // NFC: the decomposed spelling is the same name and the same id.
    expect(nameSubmission('Jose\u0301 Nu\u0301n\u0303ez')).toEqual({
      id: hashed('jose-nunez', 'José Núñez'),
      name: 'José Núñez',
      problem: null,
    });
  });

  it.each([
    ['a/b', 'the name "a/b" contains a path separator'],
    ['a\\b', 'the name "a\\\\b" contains a path separator'],
    ['..', 'the name ".." starts with "." (a hidden or parent folder)'],
    ['.env', 'the name ".env" starts with "." (a hidden or parent folder)'],
    ['', 'the name is empty'],
    ['evil\u202Egnp', 'the name "evil<U+202E>gnp" contains a control, invisible or bidi character'],
    ['a\tb', 'the name "a<U+0009>b" contains a control, invisible or bidi character'],
    ['a\u0000b', 'the name "a<U+0000>b" contains a control, invisible or bidi character'],
  ])('refuses %j', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });

  it('hidden entries and tool litter beside the submissions are no students', () => {
    expect(
      ['.DS_Store', '__MACOSX', 'node_modules', '.git', 'alice', 'package.json.bak'].filter(notASubmission),
    ).toEqual(['.DS_Store', '__MACOSX', 'node_modules', '.git']);
  });

  it('refuses every invisible and bidi character of the one list, and C0/C1 controls', () => {
    const points = [
      [0x200b, 0x200f],
      [0x202a, 0x202e],
      [0x2060, 0x2064],
      [0x2066, 0x2069],
      [0xfeff, 0xfeff],
      [0x061c, 0x061c],
      [0x180e, 0x180e],
      [0x01, 0x1f],
      [0x7f, 0x9f],
    ].flatMap(([a, b]) =>
      Array.from({ length: (b as number) - (a as number) + 1 }, (_, i) => String.fromCodePoint((a as number) + i)),
    );
    expect(points.filter((c) => nameProblem(`a${c}b`) === null).map((c) => c.codePointAt(0))).toEqual([]);
    // The list itself (domain/text.ts) covers the same characters, tab and line breaks aside (code keeps those).
    expect(points.filter((c) => !/[\t\n\r]/.test(c) && !hiddenChars().test(c)).map((c) => c.codePointAt(0))).toEqual(
      [],
    );
  });

  it('the hidden-character list exists once, in src/domain/text.ts', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    const copies = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'sandbox', 'harness'))].filter((f) =>
      /\\u202[aA]|\\u200[bB]|\\u2066/.test(readFileSync(f, 'utf8')),
    );
    expect(copies.map((f) => f.slice(ROOT.length + 1))).toEqual(['src/domain/text.ts']);
  });

  it('refuses every name of a group whose ids meet case-insensitively or after normalisation, naming the others', () => {
    const raw = [
      { raw: 'alice', name: 'alice' },
      { raw: 'Alice', name: 'Alice' },
      { raw: 'bob', name: 'bob' },
      { raw: 'bob.js', name: 'bob' },
      { raw: 'Jos\u00e9', name: 'Jos\u00e9' },
      { raw: 'Jose\u0301', name: 'Jose\u0301' },
      { raw: 'carol', name: 'carol' },
    ];
    const named = nameSubmissions(raw);
    const clash = (name: string, rawEntry: string, n = 0): string =>
      `_${name}-${sha256(`clash\0${rawEntry}\0${n}`).slice(0, 16)}`;
    const jose = hashed('jose', 'Jos\u00e9');
    expect(named).toEqual([
      {
        id: clash('alice', 'alice'),
        name: 'alice',
        problem:
          'the name "alice" and "Alice" give one id ("alice", case ignored), so none of them is graded: rename one of them',
      },
      {
        id: clash('alice', 'Alice'),
        name: 'Alice',
        problem:
          'the name "Alice" and "alice" give one id ("Alice", case ignored), so none of them is graded: rename one of them',
      },
      {
        id: clash('bob', 'bob'),
        name: 'bob',
        problem:
          'the name "bob" and "bob" ("bob.js") give one id ("bob", case ignored), so none of them is graded: rename one of them',
      },
      {
        id: clash('bob', 'bob.js'),
        name: 'bob',
        problem:
          'the name "bob" ("bob.js") and "bob" give one id ("bob", case ignored), so none of them is graded: rename one of them',
      },
      {
        id: clash('jose', 'Jos\u00e9'),
        name: 'Jos\u00e9',
        problem: `the name "Jos\u00e9" and "Jos\u00e9" ("Jose\u0301") give one id ("${jose}", case ignored), so none of them is graded: rename one of them`,
      },
      {
        id: clash('jose', 'Jose\u0301'),
        name: 'Jos\u00e9',
        problem: `the name "Jos\u00e9" ("Jose\u0301") and "Jos\u00e9" give one id ("${jose}", case ignored), so none of them is graded: rename one of them`,
      },
      { id: 'carol', name: 'carol', problem: null },
    ]);
    // Not byte order: the same entries in any order get the same ids and the same refusals.
    expect(nameSubmissions([...raw].reverse()).reverse()).toEqual(named);
  });

  it('no name can take a generated id: a name spelled like one is itself generated, and `summary` is never plain', () => {
    const victim = nameSubmission('José Núñez').id;
    expect(victim).toMatch(/^_jose-nunez-[0-9a-f]{16}$/);
    // The impostor names its folder (or HTTP id) exactly like the victim's id, old style and new.
    const claims = [victim, victim.slice(1), `jose-nunez-${sha256('José Núñez').slice(0, 8)}`, 'Summary'];
    const ids = claims.map((c) => nameSubmission(c).id);
    expect(ids).toEqual([
      hashed(victim.slice(1), victim),
      victim.slice(1),
      `jose-nunez-${sha256('José Núñez').slice(0, 8)}`,
      hashed('summary', 'Summary'),
    ]);
    expect(ids).not.toContain(victim);
    // Plain ids and generated ids are two alphabets: every generated id fails SAFE_ID, every plain id passes it.
    for (const n of ['李雷', 'o b', '_x', 'summary']) expect(nameSubmission(n).id).toMatch(GENERATED_ID);
    for (const n of ['a', 'Bob.Smith_2', 'x-0123456789abcdef']) expect(nameSubmission(n).id).toMatch(SAFE_ID);
    // In one batch, the impostor and the victim are both graded, under different ids.
    expect(
      nameSubmissions([
        { raw: victim, name: victim },
        { raw: 'José Núñez', name: 'José Núñez' },
      ]),
    ).toEqual([
      { id: hashed(victim.slice(1), victim), name: victim, problem: null },
      { id: victim, name: 'José Núñez', problem: null },
    ]);
  });
});
