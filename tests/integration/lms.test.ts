// From the LMS and back, end to end as an instructor runs it: each system's download in (a real zip, the
// real CLI and sandbox), that system's import file out, one row per student on the roster.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/domain/report.js';
import { parseCsv } from '../../src/stages/lms/roster.js';
import { ROOT } from '../helpers.js';
import { buildZip, renameEntry, type ZipItem } from '../zip-builder.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const RIGHT = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const WRONG = 'export const isLeap = (y) => y % 4 === 0;\n';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 180_000, env: { ...process.env, CI: 'true' } },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

async function roundTrip(system: string, to: string, items: ZipItem[], roster: string) {
  const dir = mkdtempSync(join(tmpdir(), `evigrade-lms-${system}-`));
  writeFileSync(join(dir, 'download.zip'), await buildZip(items));
  writeFileSync(join(dir, 'roster.csv'), roster);
  const out = join(dir, 'out');
  const g = await cli([
    'grade',
    join(dir, 'download.zip'),
    '--from',
    system,
    '--rubric',
    LEAP,
    '--out',
    out,
    '--no-llm',
    '--concurrency',
    '2',
  ]);
  expect(g.stderr).not.toMatch(/"level":[56]0/);
  expect(g.code).toBe(0);
  const r = await cli(['report', out, '--to', to, '--roster', join(dir, 'roster.csv'), '--max-points', '20']);
  expect(r.code).toBe(0);
  const file = r.stdout.split(':')[0] as string;
  const reports = (id: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8')));
  return { rows: parseCsv(readFileSync(file, 'utf8')), report: reports, stdout: r.stdout, out };
}

const points = (r: Report): string => String(Math.round(r.scores.final * 20 * 10) / 100);

describe('from the LMS and back', () => {
  it('Canvas: submissions.zip in, gradebook CSV out with its ID columns', async () => {
    const { rows, report, stdout } = await roundTrip(
      'canvas',
      'canvas',
      [
        { name: 'obrienseán_LATE_4821_99120_leap-1.js', content: RIGHT },
        { name: 'núñezzoë_377_99121_leap.js', content: WRONG },
      ],
      'Student,ID,SIS User ID,SIS Login ID,Section\r\n    Points Possible,,,,\r\n"O\'Brien, Seán",4821,S4821,sobrien,CS1 A\r\n"Núñez, Zoë",377,S377,znunez,CS1 A\r\n"Lee, Ana",12,S12,alee,CS1 B\r\n',
    );
    const sean = report('_obriensean-4821');
    expect(sean.submission.lms).toEqual({
      system: 'canvas',
      userId: '4821',
      name: 'obrienseán',
      attempt: null,
      late: true,
      submittedAt: null,
      submissionId: '99120',
    });
    expect(sean.submission.files.map((f) => f.path)).toEqual(['leap.js']);
    expect(sean.scores.final).toBe(10);
    const zoe = report('_nunezzoe-377');
    expect(zoe.scores.final).toBeLessThan(10);
    expect(rows).toEqual([
      ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Leap year'],
      ['Points Possible', '', '', '', '', '20'],
      ['Lee, Ana', '12', 'S12', 'alee', 'CS1 B', ''],
      ['Núñez, Zoë', '377', 'S377', 'znunez', 'CS1 A', points(zoe)],
      ["O'Brien, Seán", '4821', 'S4821', 'sobrien', 'CS1 A', '20'],
    ]);
    expect(stdout).toContain('3 students (1 missing) out of 20 points');
  }, 240_000);

  it('Moodle: folders in, grading worksheet and feedback files out', async () => {
    const { rows, report, out } = await roundTrip(
      'moodle',
      'moodle',
      [
        { name: "Seán O'Brien_1042_assignsubmission_file_/leap.js", content: RIGHT },
        { name: "Seán O'Brien_1042_assignsubmission_file_/notes/README.md", content: '# notes\n' },
        { name: 'Zoë Núñez_77_assignsubmission_file_/leap.js', content: WRONG },
      ],
      "Identifier,Full name,Email address\r\nParticipant 1042,Seán O'Brien,sean@x.edu\r\nParticipant 77,Zoë Núñez,zoe@x.edu\r\nParticipant 5,Ana Lee,ana@x.edu\r\n",
    );
    const zoe = report('_zoe-nunez-77');
    expect(rows.map((r) => [r[0], r[1], r[3], r[4], r[5]])).toEqual(
      [
        ['Identifier', 'Full name', 'Status', 'Grade', 'Maximum Grade'],
        ['Participant 5', 'Ana Lee', 'No submission', '', '20'],
        ['Participant 1042', "Seán O'Brien", 'Submitted for grading', '20', '20'],
        ['Participant 77', 'Zoë Núñez', 'Submitted for grading', points(zoe)],
      ].map((r) => (r.length === 4 ? [...r, '20'] : r)),
    );
    expect(rows[3]?.[9]).toMatch(new RegExp(`^${points(zoe)}/20: \\d+ of ${zoe.tests.length} tests passed\\.`));
    expect(
      readFileSync(join(out, 'moodle-feedback', 'Zoë Núñez_77_assignsubmission_file_', 'feedback.txt'), 'utf8'),
    ).toBe(`${rows[3]?.[9]}\n`);
  }, 240_000);

  it('Blackboard: attempts in (the latest graded), offline grade upload out with feedback', async () => {
    const receipt = (user: string, name: string, ts: string) => ({
      name: `Homework 1_${user}_attempt_${ts}.txt`,
      content: `Name: ${name} (${user})\nAssignment: Homework 1\nDate Submitted: ${ts}\n\nFiles:\n\tOriginal filename: leap.js\n\tFilename: Homework 1_${user}_attempt_${ts}_leap.js\n`,
    });
    const { rows, report } = await roundTrip(
      'blackboard',
      'blackboard',
      [
        receipt('obrien', "Seán O'Brien", '2026-03-01-10-00-00'),
        { name: 'Homework 1_obrien_attempt_2026-03-01-10-00-00_leap.js', content: WRONG },
        receipt('obrien', "Seán O'Brien", '2026-03-02-10-00-00'),
        { name: 'Homework 1_obrien_attempt_2026-03-02-10-00-00_leap.js', content: RIGHT },
      ],
      "Last Name,First Name,Username,Student ID\r\nO'Brien,Seán,obrien,100\r\nLee,Ana,alee,101\r\n",
    );
    expect(report('_sean-o-brien-obrien').submission.lms?.attempt).toBe(2);
    expect(rows.map((r) => r.slice(0, 8))).toEqual([
      [
        'Last Name',
        'First Name',
        'Username',
        'Student ID',
        'Last Access',
        'Availability',
        'Leap year [Total Pts: 20 Score]',
        'Grading Notes',
      ],
      ['Lee', 'Ana', 'alee', '101', '', 'Yes', '', 'missing'],
      ["O'Brien", 'Seán', 'obrien', '100', '', 'Yes', '20', ''],
    ]);
  }, 240_000);

  it('Gradescope: export in, plain CSV out', async () => {
    const meta = "submission_5001:\n  :submitters:\n  - :name: Zoë Núñez\n    :sid: 'A77'\n";
    const { rows } = await roundTrip(
      'gradescope',
      'csv',
      [
        { name: 'assignment_9_export/submission_metadata.yml', content: meta },
        { name: 'assignment_9_export/submission_5001/leap.js', content: RIGHT },
      ],
      'SID,Name\r\nA77,Zoë Núñez\r\n',
    );
    expect(rows.map((r) => r.slice(0, 6))).toEqual([
      ['user_id', 'name', 'submission', 'status', 'points', 'max_points'],
      ['A77', 'Zoë Núñez', '_zoe-nunez-a77', 'graded', '20', '20'],
    ]);
  }, 240_000);

  it('hostile downloads: an escaping entry refuses the archive before any sandbox; a symlink rejects only its student', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-lms-hostile-'));
    const escape = renameEntry(
      await buildZip([{ name: 'aa_1_2_leap.js', content: RIGHT }]),
      'aa_1_2_leap.js',
      '../1_2_leap.js',
    );
    writeFileSync(join(dir, 'escape.zip'), escape);
    const e = await cli([
      'grade',
      join(dir, 'escape.zip'),
      '--from',
      'canvas',
      '--rubric',
      LEAP,
      '--out',
      join(dir, 'o1'),
      '--no-llm',
    ]);
    expect([e.code, e.stderr.trim()]).toEqual([
      2,
      `evigrade: error ARCHIVE_INVALID: ${join(dir, 'escape.zip')}: invalid relative path: ../1_2_leap.js`,
    ]);
    writeFileSync(
      join(dir, 'link.zip'),
      await buildZip([
        { name: 'obrien_4821_1_leap.js', content: '/etc/passwd', mode: 0o120777 },
        { name: 'lee_12_2_leap.js', content: RIGHT },
      ]),
    );
    const l = await cli(['grade', join(dir, 'link.zip'), '--rubric', LEAP, '--out', join(dir, 'o2'), '--no-llm']);
    expect(l.code).toBe(0);
    const rep = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'o2', '_obrien-4821.json'), 'utf8')));
    expect([rep.status, rep.errors]).toEqual([
      'rejected',
      [
        {
          code: 'INTAKE_SYMLINK',
          message: 'submission "_obrien-4821": "leap.js" is a symbolic link (obrien_4821_1_leap.js in the download)',
        },
      ],
    ]);
    expect(ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'o2', '_lee-12.json'), 'utf8'))).scores.final).toBe(10);
  }, 240_000);
});
