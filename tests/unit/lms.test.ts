// LMS downloads: each system's naming read back to students and the files they uploaded (pure stages,
// through the real zip reader), the archive rules on hostile zips, and the import files written back.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { readTree } from '../../src/adapters/archive/tree.js';
import { readZip } from '../../src/adapters/archive/zip.js';
import { GRADEBOOK_WRITERS, gradebookRows } from '../../src/stages/lms/gradebook.js';
import { resolveFormat } from '../../src/stages/lms/registry.js';
import { parseCsv, parseRoster } from '../../src/stages/lms/roster.js';
import { lmsSubmissions } from '../../src/stages/lms/submissions.js';
import type { Report } from '../../src/domain/report.js';
import { buildZip, renameEntry, type ZipItem } from '../zip-builder.js';

const LIMITS = { maxBytes: 1024 * 1024, maxEntries: 100 };
const code = 'export const isLeap = (y) => y % 4 === 0;\n';

async function read(
  items: ZipItem[],
  from: 'auto' | 'canvas' | 'moodle' | 'blackboard' | 'gradescope' = 'auto',
  attempts: 'latest' | 'all' = 'latest',
) {
  const entries = await readZip(await buildZip(items), 'dl.zip', LIMITS);
  const { format, entries: root } = resolveFormat(entries, from, 'dl.zip');
  const parsed = format.parse(root, { entryFile: 'leap.js' });
  return { system: format.id, unmatched: parsed.unmatched, subs: lmsSubmissions(parsed.attempts, attempts, 'leap.js') };
}
const shape = (s: Awaited<ReturnType<typeof read>>['subs']) =>
  s.map((x) => ({ id: x.id, lms: x.lms, files: Object.keys(x.files), error: x.error?.code ?? null }));

describe('LMS download formats', () => {
  it('Canvas: name_[LATE_]userid_submissionid_file, copy suffix undone on the entry file only, inside a re-zipped folder', async () => {
    const r = await read([
      { name: 'submissions/obrienseán_LATE_4821_99120_leap-1.js', content: code },
      { name: 'submissions/obrienseán_LATE_4821_99120_part-2.js', content: '//\n' },
      { name: 'submissions/núñezzoë_377_99121_leap.js', content: code },
      { name: '__MACOSX/._x', content: 'junk' },
    ]);
    expect(r.system).toBe('canvas');
    expect(r.unmatched).toEqual([]);
    expect(shape(r.subs)).toEqual([
      {
        id: '_nunezzoe-377',
        lms: {
          system: 'canvas',
          userId: '377',
          name: 'núñezzoë',
          attempt: null,
          late: false,
          submittedAt: null,
          submissionId: '99121',
        },
        files: ['leap.js'],
        error: null,
      },
      {
        id: '_obriensean-4821',
        lms: {
          system: 'canvas',
          userId: '4821',
          name: 'obrienseán',
          attempt: null,
          late: true,
          submittedAt: null,
          submissionId: '99120',
        },
        files: ['leap.js', 'part-2.js'],
        error: null,
      },
    ]);
  });

  it('a single uploaded file is renamed to the entry file, as folder intake does; its messages name the upload', async () => {
    const r = await read([
      { name: 'leeana_5_900_solution.js', content: code },
      { name: 'kimbo_6_901_photo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]) },
      { name: 'parkjin_7_902_main.js', content: code },
      { name: 'parkjin_7_902_util.js', content: code },
    ]);
    expect(r.subs.map((x) => [x.id, Object.keys(x.files), x.error?.message ?? null])).toEqual([
      ['_leeana-5', ['leap.js'], null],
      [
        '_kimbo-6',
        [],
        'submission "_kimbo-6": "photo.png" (graded as leap.js) is binary (contains NUL bytes) (kimbo_6_901_photo.png in the download)',
      ],
      ['_parkjin-7', ['main.js', 'util.js'], null],
    ]);
    expect(r.subs[0]?.files['leap.js']).toBe(code);
  });

  it("Moodle: 'Full Name_id_assignsubmission_file_' folders with nested paths; online text listed, not graded; flat prefixes too", async () => {
    const r = await read([
      { name: "Seán O'Brien_1042_assignsubmission_file_/src/lib/util.js", content: '//\n' },
      { name: "Seán O'Brien_1042_assignsubmission_file_/leap.js", content: code },
      { name: "Seán O'Brien_1042_assignsubmission_onlinetext_/onlinetext.html", content: '<p>hi</p>' },
      { name: 'Zoë Núñez_77_assignsubmission_file_leap.js', content: code },
    ]);
    expect(r.system).toBe('moodle');
    expect(shape(r.subs)).toEqual([
      {
        id: '_sean-o-brien-1042',
        lms: {
          system: 'moodle',
          userId: '1042',
          name: "Seán O'Brien",
          attempt: null,
          late: null,
          submittedAt: null,
          submissionId: null,
        },
        files: ['leap.js', 'src/lib/util.js'],
        error: null,
      },
      {
        id: '_zoe-nunez-77',
        lms: {
          system: 'moodle',
          userId: '77',
          name: 'Zoë Núñez',
          attempt: null,
          late: null,
          submittedAt: null,
          submissionId: null,
        },
        files: ['leap.js'],
        error: null,
      },
    ]);
    expect(r.subs[0]?.ignored).toEqual(["Seán O'Brien_1042_assignsubmission_onlinetext_/onlinetext.html"]);
  });

  const bb = (user: string, ts: string, name: string, files: string[]): ZipItem[] => [
    {
      name: `Homework 1_${user}_attempt_${ts}.txt`,
      content: `Name: ${name} (${user})\nAssignment: Homework 1\nDate Submitted: ${ts}\nCurrent Grade: Needs Grading\n\nSubmission Field:\nThere is no student submission text data for this assignment.\n\nComments:\nThere are no student comments for this assignment.\n\nFiles:\n${files.map((f) => `\tOriginal filename: ${f}\n\tFilename: Homework 1_${user}_attempt_${ts}_${f.replace('.js', '-1.js')}\n`).join('')}`,
    },
    ...files.map((f) => ({ name: `Homework 1_${user}_attempt_${ts}_${f.replace('.js', '-1.js')}`, content: code })),
  ];

  it('Blackboard: attempts numbered per student, the latest kept (or all), original names from the attempt receipt', async () => {
    const items = [
      ...bb('j_smith', '2026-03-01-10-00-00', 'Jo Smith', ['leap.js']),
      ...bb('j_smith', '2026-03-02-09-30-00', 'Jo Smith', ['leap.js', 'util.js']),
      ...bb('obrien', '2026-03-01-23-59-59', "Seán O'Brien", ['leap.js']),
    ];
    const latest = await read(items);
    expect(latest.system).toBe('blackboard');
    expect(shape(latest.subs)).toEqual([
      {
        id: '_jo-smith-j-smith',
        lms: {
          system: 'blackboard',
          userId: 'j_smith',
          name: 'Jo Smith',
          attempt: 2,
          late: null,
          submittedAt: '2026-03-02-09-30-00',
          submissionId: null,
        },
        files: ['leap.js', 'util.js'],
        error: null,
      },
      {
        id: '_sean-o-brien-obrien',
        lms: {
          system: 'blackboard',
          userId: 'obrien',
          name: "Seán O'Brien",
          attempt: 1,
          late: null,
          submittedAt: '2026-03-01-23-59-59',
          submissionId: null,
        },
        files: ['leap.js'],
        error: null,
      },
    ]);
    const all = await read(items, 'blackboard', 'all');
    expect(all.subs.map((s) => s.id)).toEqual([
      '_jo-smith-j-smith-attempt-1',
      '_jo-smith-j-smith-attempt-2',
      '_sean-o-brien-obrien-attempt-1',
    ]);
  });

  it('Gradescope: submission_<id> folders named by submission_metadata.yml', async () => {
    const meta =
      "submission_5001:\n  :submitters:\n  - :name: Zoë Núñez\n    :sid: 'A77'\n    :email: zoe@example.edu\n  :created_at: 2026-03-01 10:00:00.000000000 -08:00\n  :score: \nsubmission_5002:\n  :submitters:\n  - :name: Seán O'Brien\n    :sid: ''\n    :email: sean@example.edu\n  :created_at: 2026-03-01 11:00:00.000000000 -08:00\n";
    const r = await read([
      { name: 'assignment_9_export/submission_metadata.yml', content: meta },
      { name: 'assignment_9_export/submission_5001/leap.js', content: code },
      { name: 'assignment_9_export/submission_5002/src/leap.js', content: code },
    ]);
    expect(r.system).toBe('gradescope');
    expect(shape(r.subs)).toEqual([
      {
        id: '_zoe-nunez-a77',
        lms: {
          system: 'gradescope',
          userId: 'A77',
          name: 'Zoë Núñez',
          attempt: null,
          late: null,
          submittedAt: '2026-03-01 10:00:00.000000000 -08:00',
          submissionId: '5001',
        },
        files: ['leap.js'],
        error: null,
      },
      {
        id: '_sean-o-brien-sean-example-edu',
        lms: {
          system: 'gradescope',
          userId: 'sean@example.edu',
          name: "Seán O'Brien",
          attempt: null,
          late: null,
          submittedAt: '2026-03-01 11:00:00.000000000 -08:00',
          submissionId: '5002',
        },
        files: ['src/leap.js'],
        error: null,
      },
    ]);
  });

  it('Gradescope metadata of another shape reads as absent: the folder names the student', async () => {
    for (const meta of [
      '- just\n- a list\n',
      'submission_5001: 42\n',
      'submission_5001:\n  :submitters: oops\n',
      'submission_5001:\n  :submitters: [null, 3]\n',
    ]) {
      const r = await read([
        { name: 'submission_metadata.yml', content: meta },
        { name: 'submission_5001/leap.js', content: code },
      ]);
      expect(r.subs.map((s) => [s.id, s.lms.userId, s.lms.name])).toEqual([
        ['_submission-5001', 'submission_5001', ''],
      ]);
    }
  });

  it('with --from named, entries its naming does not explain are listed, not guessed at', async () => {
    const r = await read(
      [
        { name: 'obrien_4821_1_leap.js', content: code },
        { name: 'README.txt', content: 'x' },
      ],
      'canvas',
    );
    expect([r.unmatched, r.subs.map((s) => s.id)]).toEqual([['README.txt'], ['_obrien-4821']]);
    await expect(
      read([
        { name: 'obrien_4821_1_leap.js', content: code },
        { name: 'README.txt', content: 'x' },
      ]),
    ).rejects.toMatchObject({ code: 'ARCHIVE_INVALID' });
  });

  it('a download in another format than --from names is refused, saying what it looked like', async () => {
    await expect(read([{ name: 'obrien_1_2_leap.js', content: code }], 'moodle')).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: expect.stringContaining('dl.zip: not a moodle download (1 entries, e.g. "obrien_1_2_leap.js")'),
    });
  });
});

describe('hostile zips', () => {
  it('an entry escaping the archive refuses the whole archive', async () => {
    const zip = renameEntry(await buildZip([{ name: 'aa/evil.js', content: code }]), 'aa/evil.js', '../evil.js');
    await expect(readZip(zip, 'dl.zip', LIMITS)).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: 'dl.zip: invalid relative path: ../evil.js',
    });
  });

  it('a zip bomb stops at the byte limit while inflating', async () => {
    const zip = await buildZip([{ name: 'a_1_2_leap.js', content: Buffer.alloc(4 * 1024 * 1024, 0x20) }]);
    expect(zip.length).toBeLessThan(64 * 1024);
    await expect(readZip(zip, 'dl.zip', LIMITS)).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: `dl.zip: entry "a_1_2_leap.js" claims ${4 * 1024 * 1024} bytes (limit ${1024 * 1024})`,
    });
  });

  it('entries each under the limit stop at the total byte limit as they inflate', async () => {
    const zip = await buildZip(
      Array.from({ length: 3 }, (_, i) => ({ name: `a_1_2_f${i}.js`, content: Buffer.alloc(400 * 1024, 0x20) })),
    );
    await expect(readZip(zip, 'dl.zip', LIMITS)).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: 'dl.zip: entry "a_1_2_f2.js" inflates past the archive\'s byte limit',
    });
  });

  it('an entry whose header understates its size stops at the limit all the same', async () => {
    const small = await buildZip([{ name: 'a_1_2_leap.js', content: Buffer.alloc(2 * 1024 * 1024, 0x20) }]);
    // Rewrite the claimed size (central directory, offset 24 of the entry record) to 10 bytes: the header lies.
    const cd = small.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const lying = Buffer.from(small);
    lying.writeUInt32LE(10, cd + 24);
    await expect(readZip(lying, 'dl.zip', LIMITS)).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: 'dl.zip: entry "a_1_2_leap.js" inflates past the archive\'s byte limit',
    });
  });

  it('more entries than the limit refuse the archive', async () => {
    const zip = await buildZip(Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.js`, content: '1' })));
    await expect(readZip(zip, 'dl.zip', LIMITS)).rejects.toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: 'dl.zip: more than 100 entries',
    });
  });

  it("a symbolic link rejects its student's submission only", async () => {
    const r = await read([
      { name: 'obrien_4821_1_leap.js', content: '/etc/passwd', mode: 0o120777 },
      { name: 'nunez_377_2_leap.js', content: code },
    ]);
    expect(r.subs.map((s) => [s.id, s.error])).toEqual([
      ['_nunez-377', null],
      [
        '_obrien-4821',
        {
          code: 'INTAKE_SYMLINK',
          message: 'submission "_obrien-4821": "leap.js" is a symbolic link (obrien_4821_1_leap.js in the download)',
        },
      ],
    ]);
  });
});

describe('unpacked downloads (a folder)', () => {
  it('read like the zip: links and FIFOs come back as such, never followed or opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-lms-tree-'));
    mkdirSync(join(dir, "Seán O'Brien_1042_assignsubmission_file_", 'src'), { recursive: true });
    writeFileSync(join(dir, "Seán O'Brien_1042_assignsubmission_file_", 'src', 'leap.js'), code);
    mkdirSync(join(dir, 'Zoë Núñez_77_assignsubmission_file_'));
    symlinkSync('/etc/passwd', join(dir, 'Zoë Núñez_77_assignsubmission_file_', 'leap.js'));
    mkdirSync(join(dir, 'Ana Lee_5_assignsubmission_file_'));
    expect(spawnSync('mkfifo', [join(dir, 'Ana Lee_5_assignsubmission_file_', 'leap.js')]).status).toBe(0);
    const entries = await readTree(dir, LIMITS);
    expect(entries.map((e) => [e.path, e.kind, e.data.length])).toEqual([
      ['Ana Lee_5_assignsubmission_file_/leap.js', 'special', 0],
      ["Seán O'Brien_1042_assignsubmission_file_/src/leap.js", 'file', code.length],
      ['Zoë Núñez_77_assignsubmission_file_/leap.js', 'symlink', 0],
    ]);
    const { format, entries: root } = resolveFormat(entries, 'auto', dir);
    const subs = lmsSubmissions(format.parse(root, { entryFile: 'leap.js' }).attempts, 'latest', 'leap.js');
    expect(subs.map((s) => [s.id, s.error?.code ?? null])).toEqual([
      ['_sean-o-brien-1042', null],
      ['_ana-lee-5', 'INTAKE_SPECIAL_FILE'],
      ['_zoe-nunez-77', 'INTAKE_SYMLINK'],
    ]);
  });
});

describe('import files', () => {
  const report = (
    id: string,
    final: number,
    lms: Report['submission']['lms'],
    status: Report['status'] = 'graded',
  ): Report =>
    ({
      status,
      submission: { id, sha256: '', files: [], ignored: [], lms },
      rubric: { title: 'Leap year' },
      tests: [],
      flags: [],
      errors: [],
      sandbox: { violations: [] },
      judge: { status: 'skipped', output: null },
      evidence: { hash: 'sha256:x', items: [] },
      scores: {
        final,
        basis: 'deterministic only: judge skipped (HF_TOKEN is not set)',
        deterministic: { correctness: 5, edge_cases: null, style: 8, complexity: 9, total: final / 2 },
        blend: { applied: false },
      },
    }) as unknown as Report;
  const sean = {
    system: 'moodle',
    userId: '1042',
    name: "Seán O'Brien",
    attempt: null,
    late: null,
    submittedAt: null,
    submissionId: null,
  } as const;

  it('several attempts of one student make one row, from the latest attempt', () => {
    const bb = (attempt: number) =>
      ({
        system: 'blackboard',
        userId: 'obrien',
        name: "Seán O'Brien",
        attempt,
        late: null,
        submittedAt: null,
        submissionId: null,
      }) as const;
    const rows = gradebookRows([report('_s-attempt-2', 9, bb(2)), report('_s-attempt-1', 4, bb(1))], null, 10);
    expect(rows.map((r) => [r.userId, r.submission, r.points, r.status])).toEqual([
      ['obrien', '_s-attempt-2', 9, 'graded'],
    ]);
  });

  it('scale to --max-points, one row per student, roster names and "missing" rows; formulas neutralised', () => {
    const roster = parseRoster(
      'Identifier,Full name,Email address\r\nParticipant 1042,"O\'Brien, Seán",sean@x.edu\r\nParticipant 55,"=HYPERLINK(""x"")",p@x.edu\r\n',
      'roster.csv',
    );
    const rows = gradebookRows([report('_sean-o-brien-1042', 7.25, sean)], roster, 20);
    const csv = GRADEBOOK_WRITERS.moodle.write({ title: 'Leap year', maxPoints: 20, rows, rosterHeader: [] });
    expect(parseCsv(csv)).toEqual([
      [
        'Identifier',
        'Full name',
        'Email address',
        'Status',
        'Grade',
        'Maximum Grade',
        'Grade can be changed',
        'Last modified (submission)',
        'Last modified (grade)',
        'Feedback comments',
      ],
      ['Participant 55', '\'=HYPERLINK("x")', 'p@x.edu', 'No submission', '', '20', 'Yes', '', '', 'No submission.'],
      [
        'Participant 1042',
        "O'Brien, Seán",
        'sean@x.edu',
        'Submitted for grading',
        '14.5',
        '20',
        'Yes',
        '',
        '',
        '14.5/20: 0 of 0 tests passed.\nEvidence sha256:x.',
      ],
    ]);
  });

  // Canvas matches an import's column by `Title (id)` first, then by exact title; its header must begin
  // `Student, ID` and its identity columns end with `Section`. A roster's columns go back exactly as read.
  describe('Canvas import: the roster columns written back as read', () => {
    const ROSTER =
      'Student,ID,SIS User ID,SIS Login ID,Integration ID,Section,Word frequency (123),Quiz 1 (124)\r\n' +
      '    Points Possible,,,,,,10,5\r\n' +
      '"O\'Brien, Seán",4821,S4821,sobrien,int-9,CS1 A,,4\r\n' +
      '"Lee, Ana",12,S12,alee,,CS1 B,,5\r\n';
    const canvasRules = (header: string[], grade: string): void => {
      expect(header.slice(0, 2)).toEqual(['Student', 'ID']);
      expect(header.at(-2)).toBe('Section');
      expect(header.at(-1)).toBe(grade);
    };
    const write = (roster: string | null, title: string): string[][] =>
      parseCsv(
        GRADEBOOK_WRITERS.canvas.write({
          title,
          maxPoints: 10,
          rows: gradebookRows([], roster === null ? null : parseRoster(roster, 'roster.csv'), 10),
          rosterHeader: roster === null ? [] : (parseCsv(roster)[0] ?? []),
        }),
      );

    it("keeps `Word frequency (123)` and the roster's identity columns (Integration ID too), values in place", () => {
      const out = write(ROSTER, 'Word frequency');
      canvasRules(out[0] as string[], 'Word frequency (123)');
      expect(out).toEqual([
        ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Integration ID', 'Section', 'Word frequency (123)'],
        ['Points Possible', '', '', '', '', '', '10'],
        ['Lee, Ana', '12', 'S12', 'alee', '', 'CS1 B', ''],
        ["O'Brien, Seán", '4821', 'S4821', 'sobrien', 'int-9', 'CS1 A', ''],
      ]);
    });

    it("the exact title when the roster has it without an id; Canvas's own five columns and the title without a roster", () => {
      canvasRules(
        write(ROSTER.replace('Word frequency (123)', 'Word frequency'), 'Word frequency')[0] as string[],
        'Word frequency',
      );
      const bare = write(null, 'Word frequency');
      canvasRules(bare[0] as string[], 'Word frequency');
      expect(bare[0]).toEqual(['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Word frequency']);
    });

    it('refuses a roster with two `Title (id)` columns for the assignment, naming both', () => {
      expect(() => write(ROSTER.replace('Quiz 1 (124)', 'Word frequency (125)'), 'Word frequency')).toThrow(
        'the roster has 2 columns for "Word frequency" (Word frequency (123), Word frequency (125)): keep the one to import in the roster',
      );
    });
  });
});
