// Real names and the entry check on every way in (issue 16), end to end: the CLI on a folder and on an LMS
// download (a real process and sandbox), POST /grade, and POST /batches with JSON and with a tar.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from 'tar-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BatchStatus } from '../../src/domain/api.js';
import { ReportSchema, SummarySchema, type Report } from '../../src/domain/report.js';
import { parseCsv } from '../../src/stages/lms/roster.js';
import { sha256 } from '../../src/util/hash.js';
import { batchApp, batchFinished, leapService, ROOT } from '../helpers.js';
import { buildZip } from '../zip-builder.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
const GOOD = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const hashed = (slug: string, name: string): string => `_${slug}-${sha256(name.normalize('NFC')).slice(0, 16)}`;
const MISSING = (id: string, found: string): string =>
  `submission "${id}": the rubric's entry "./leap" needs leap.js at the top of the submission; found ${found}`;

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
const parse = (dir: string, id: string): Report =>
  ReportSchema.parse(JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')));

describe('the CLI keeps real names and checks the entry file', () => {
  it('a folder: Unicode names graded under safe ids, names in the reports, summary.json and grades.csv; bad names and a missing entry rejected', async () => {
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-names-'));
    const put = (p: string, c: string): void => {
      mkdirSync(join(subs, p, '..'), { recursive: true });
      writeFileSync(join(subs, p), c);
    };
    put("o'brien.js", GOOD);
    put('José Núñez/leap.js', GOOD);
    put('李雷/leap.js', GOOD);
    put('ana 🎉/leap.js', GOOD);
    put('=cmd()/leap.js', GOOD);
    put('evil\u202Egnp/leap.js', GOOD);
    put('nolead/solution.js', GOOD);
    put('__MACOSX/._nolead', 'x'); // tool litter beside the students: not a submission
    const out = join(subs, '..', `${subs.split('/').pop()}-out`);
    const r = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--no-llm', '--concurrency', '2']);
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringMatching(/"level":[56]0/)]);
    const ids = {
      obrien: hashed('o-brien', "o'brien"),
      jose: hashed('jose-nunez', 'José Núñez'),
      li: hashed('student', '李雷'),
      ana: hashed('ana', 'ana 🎉'),
      cmd: hashed('cmd', '=cmd()'),
      evil: hashed('evil-gnp', 'evil\u202Egnp'),
    };
    expect(readdirSync(out).sort()).toEqual(
      [...Object.values(ids).map((i) => `${i}.json`), 'grades.csv', 'nolead.json', 'summary.json'].sort(),
    );
    const names = { obrien: "o'brien", jose: 'José Núñez', li: '李雷', ana: 'ana 🎉', cmd: '=cmd()' } as const;
    for (const [k, name] of Object.entries(names)) {
      const rep = parse(out, ids[k as keyof typeof names]);
      expect([rep.submission.id, rep.submission.name, rep.status, rep.scores.final]).toEqual([
        ids[k as keyof typeof names],
        name,
        'graded',
        10,
      ]);
    }
    const evil = parse(out, ids.evil);
    expect([evil.status, evil.submission.name, evil.errors]).toEqual([
      'rejected',
      'evil\u202Egnp',
      [
        {
          code: 'INTAKE_PATH_INVALID',
          message: `submission "${ids.evil}": the name "evil<U+202E>gnp" contains a control, invisible or bidi character`,
        },
      ],
    ]);
    const nolead = parse(out, 'nolead');
    expect([nolead.status, nolead.errors]).toEqual([
      'rejected',
      [{ code: 'INTAKE_ENTRY_MISSING', message: MISSING('nolead', 'solution.js') }],
    ]);
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    expect(Object.fromEntries(summary.submissions.map((s) => [s.id, s.name ?? null]))).toEqual({
      [ids.obrien]: "o'brien",
      [ids.jose]: 'José Núñez',
      [ids.li]: '李雷',
      [ids.ana]: 'ana 🎉',
      [ids.cmd]: '=cmd()',
      [ids.evil]: 'evil\u202Egnp',
      nolead: null,
    });
    const csv = parseCsv(readFileSync(join(out, 'grades.csv'), 'utf8'));
    const byId = Object.fromEntries(csv.slice(1).map((row) => [row[0], [row[1], row.at(-1)]]));
    // A name that starts a formula stays text in a spreadsheet.
    expect(byId).toEqual({
      [ids.obrien]: ['graded', "o'brien"],
      [ids.jose]: ['graded', 'José Núñez'],
      [ids.li]: ['graded', '李雷'],
      [ids.ana]: ['graded', 'ana 🎉'],
      [ids.cmd]: ['graded', "'=cmd()"],
      [ids.evil]: ['rejected', 'evil\u202Egnp'],
      nolead: ['rejected', 'nolead'],
    });
    const exp = await cli(['report', out, '--to', 'csv']);
    expect(exp.code).toBe(0);
    const rows = parseCsv(readFileSync(join(out, 'lms-grades.csv'), 'utf8'));
    expect(
      rows
        .filter((row) => row[0] === ids.jose || row[0] === ids.cmd)
        .map((row) => row.slice(0, 4))
        .sort(),
    ).toEqual([
      [ids.cmd, "'=cmd()", ids.cmd, 'graded'],
      [ids.jose, 'José Núñez', ids.jose, 'graded'],
    ]);
  }, 240_000);

  it('an LMS download: a student without the entry file is rejected naming what was found, the others graded (a single upload is the entry, as in folder intake)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-names-lms-'));
    writeFileSync(
      join(dir, 'download.zip'),
      await buildZip([
        { name: "Seán O'Brien_1042_assignsubmission_file_/leap.js", content: GOOD },
        { name: 'Ana Lee_5_assignsubmission_file_/main.js', content: GOOD },
        { name: 'Ana Lee_5_assignsubmission_file_/util.js', content: GOOD },
        { name: 'Bo Kim_6_assignsubmission_file_/my-leap.js', content: GOOD },
      ]),
    );
    const out = join(dir, 'out');
    const r = await cli([
      'grade',
      join(dir, 'download.zip'),
      '--from',
      'moodle',
      '--rubric',
      LEAP,
      '--out',
      out,
      '--no-llm',
    ]);
    expect(r.code).toBe(0);
    const ana = parse(out, '_ana-lee-5');
    expect([ana.status, ana.submission.lms?.name, ana.errors]).toEqual([
      'rejected',
      'Ana Lee',
      [{ code: 'INTAKE_ENTRY_MISSING', message: MISSING('_ana-lee-5', 'main.js, util.js') }],
    ]);
    expect(parse(out, '_sean-o-brien-1042').status).toBe('graded');
    expect(parse(out, '_bo-kim-6').status).toBe('graded');
  }, 240_000);
});

describe('HTTP keeps real names and checks the entry file', () => {
  const KEY = 'test-key-0123456789abcdef';
  const headers = { authorization: `Bearer ${KEY}` };
  let service: Awaited<ReturnType<typeof leapService>>;
  beforeAll(async () => {
    service = await leapService();
  });
  const app = () => batchApp(service, KEY);
  /** Posts a batch and waits until it is done; its id. */
  async function posted(
    a: Awaited<ReturnType<typeof app>>,
    res: Awaited<ReturnType<Awaited<ReturnType<typeof app>>['a']['inject']>>,
  ): Promise<string> {
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: string };
    await batchFinished(a.batches, id);
    return id;
  }

  it('POST /grade: a Unicode id is kept as the name beside a safe id; a bidi id and a missing entry are 400s', async () => {
    const { a } = await app();
    const ok = await a.inject({
      method: 'POST',
      url: '/grade',
      headers,
      payload: { rubric: 'leap', id: 'José Núñez', files: { 'leap.js': GOOD } },
    });
    expect([ok.statusCode, ok.json().submission.id, ok.json().submission.name]).toEqual([
      200,
      hashed('jose-nunez', 'José Núñez'),
      'José Núñez',
    ]);
    const bidi = await a.inject({
      method: 'POST',
      url: '/grade',
      headers,
      payload: { rubric: 'leap', id: 'a\u202Eb', files: { 'leap.js': GOOD } },
    });
    expect([bidi.statusCode, bidi.json().error]).toEqual([
      400,
      {
        code: 'INTAKE_PATH_INVALID',
        message: `submission "${hashed('a-b', 'a\u202Eb')}": the name "a<U+202E>b" contains a control, invisible or bidi character`,
        details: { submission: hashed('a-b', 'a\u202Eb') },
      },
    ]);
    const none = await a.inject({
      method: 'POST',
      url: '/grade',
      headers,
      payload: { rubric: 'leap', id: 'sam', files: { 'main.js': GOOD } },
    });
    expect([none.statusCode, none.json().error.code, none.json().error.message]).toEqual([
      400,
      'INTAKE_ENTRY_MISSING',
      MISSING('sam', 'main.js'),
    ]);
  }, 120_000);

  it('POST /batches (JSON): the submission without the entry file is rejected, the batch goes on; names in reports and summary', async () => {
    const server = await app();
    const { batches } = server;
    const id = await posted(
      server,
      await server.a.inject({
        method: 'POST',
        url: '/batches',
        headers,
        payload: {
          rubric: 'leap',
          submissions: [
            { id: "o'brien", files: { 'leap.js': GOOD } },
            { id: 'nolead', files: { 'main.js': GOOD } },
            { id: 'bad\u200Bname', files: { 'leap.js': GOOD } },
          ],
        },
      }),
    );
    const [obrien, bad] = [hashed('o-brien', "o'brien"), hashed('bad-name', 'bad\u200Bname')];
    expect((await batches.status(id)).submissions.map((s) => `${s.id}:${s.status}`)).toEqual([
      `${obrien}:graded`,
      'nolead:rejected',
      `${bad}:rejected`,
    ]);
    // GET /batches/{id} names each student beside the id, as reports and the summary do.
    const listed = (await server.a.inject({ url: `/batches/${id}`, headers })).json() as BatchStatus;
    expect(listed.submissions.map((s) => [s.id, s.name ?? null])).toEqual([
      [obrien, "o'brien"],
      ['nolead', null],
      [bad, 'bad\u200Bname'],
    ]);
    expect((await batches.report(id, 'nolead')).errors).toEqual([
      { code: 'INTAKE_ENTRY_MISSING', message: MISSING('nolead', 'main.js') },
    ]);
    expect((await batches.report(id, bad)).errors.map((e) => e.code)).toEqual(['INTAKE_PATH_INVALID']);
    expect((await batches.report(id, obrien)).submission.name).toBe("o'brien");
    expect((await batches.summary(id)).submissions.map((s) => [s.id, s.name ?? null])).toEqual([
      [bad, 'bad\u200Bname'],
      [obrien, "o'brien"],
      ['nolead', null],
    ]);
  }, 120_000);

  it('POST /batches (tar): Unicode folder names graded under safe ids; a folder without the entry file rejected, the batch goes on', async () => {
    const server = await app();
    const { batches } = server;
    const p = pack();
    const entries: [string, string][] = [
      ['ana 🎉/leap.js', GOOD],
      ['李雷.js', GOOD],
      ['nolead/main.js', GOOD],
      ['nolead/README.md', '# hi'],
      ['__MACOSX/nolead/._main.js', 'x'],
      ['.DS_Store', 'x'],
    ];
    for (const [name, body] of entries) p.entry({ name }, body);
    p.finalize();
    const chunks: Buffer[] = [];
    for await (const c of p) chunks.push(c as Buffer);
    const id = await posted(
      server,
      await server.a.inject({
        method: 'POST',
        url: '/batches?rubric=leap',
        headers: { ...headers, 'content-type': 'application/x-tar' },
        payload: Buffer.concat(chunks),
      }),
    );
    const [ana, li] = [hashed('ana', 'ana 🎉'), hashed('student', '李雷')];
    expect((await batches.status(id)).submissions.map((s) => `${s.id}:${s.status}`)).toEqual([
      `${ana}:graded`,
      'nolead:rejected',
      `${li}:graded`,
    ]);
    expect((await batches.report(id, 'nolead')).errors).toEqual([
      { code: 'INTAKE_ENTRY_MISSING', message: MISSING('nolead', 'README.md, main.js') },
    ]);
    const liReport = await batches.report(id, li);
    expect([liReport.submission.name, liReport.submission.files.map((f) => f.path)]).toEqual(['李雷', ['leap.js']]);
  }, 120_000);
});
