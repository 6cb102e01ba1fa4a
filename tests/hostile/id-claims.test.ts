// Ids no name can claim (issue 30): a student who names a folder or an HTTP `id` like another student's id
// gets an id of its own; names whose ids meet are all refused, each message naming the others, never one kept
// by byte order; a folder named like the batch's own summary cannot replace it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, SummarySchema } from '../../src/domain/report.js';
import { nameSubmission } from '../../src/stages/intake/intake-names.js';
import { sha256 } from '../../src/util/hash.js';
import { batchApp, batchFinished, leapService, ROOT } from '../helpers.js';

const KEY = 'test-key-0123456789abcdef';
const headers = { authorization: `Bearer ${KEY}` };
const GOOD = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';
const WRONG = 'export const isLeap = () => true;\n';
const hashed = (words: string, name: string): string => `_${words}-${sha256(name.normalize('NFC')).slice(0, 16)}`;
const VICTIM = 'José Núñez';
const victimId = hashed('jose-nunez', VICTIM);
const legacyId = `jose-nunez-${sha256(VICTIM).slice(0, 8)}`;
const refusal = (me: string, others: string, id: string): string =>
  `the name ${me} and ${others} give one id ("${id}", case ignored), so none of them is graded: rename one of them`;

describe('ids no name can claim, over HTTP', () => {
  let service: Awaited<ReturnType<typeof leapService>>;
  beforeAll(async () => {
    service = await leapService();
  }, 120_000);

  it("POST /grade: an id spelled like the victim's id, new or old style, is the impostor's own", async () => {
    const { a } = await batchApp(service, KEY);
    const grade = async (id: string, code: string) =>
      ReportSchema.parse(
        (
          await a.inject({
            method: 'POST',
            url: '/grade',
            headers,
            payload: { rubric: 'leap', id, files: { 'leap.js': code } },
          })
        ).json(),
      );
    const victim = await grade(VICTIM, GOOD);
    const impostors = [
      await grade(victimId, WRONG),
      await grade(victimId.toUpperCase(), WRONG),
      await grade(legacyId, WRONG),
    ];
    expect([victim.submission.id, victim.submission.name, victim.scores.deterministic.correctness]).toEqual([
      victimId,
      VICTIM,
      10,
    ]);
    expect(impostors.map((r) => [r.submission.id, r.submission.name ?? null])).toEqual([
      [hashed(victimId.slice(1), victimId), victimId],
      [hashed(victimId.slice(1), victimId.toUpperCase()), victimId.toUpperCase()],
      [legacyId, null], // a plain name is its own id; generated ids are all `_…` now
    ]);
    // The same student keeps the same id on every request.
    expect((await grade(VICTIM, WRONG)).submission.id).toBe(victimId);
  }, 180_000);

  it('POST /batches: the impostor graded apart, case twins and NFC/NFD twins all refused, each naming the other', async () => {
    const server = await batchApp(service, KEY);
    const res = await server.a.inject({
      method: 'POST',
      url: '/batches',
      headers,
      payload: {
        rubric: 'leap',
        submissions: [
          { id: VICTIM, files: { 'leap.js': GOOD } },
          { id: victimId, files: { 'leap.js': WRONG } },
          { id: 'alice', files: { 'leap.js': WRONG } },
          { id: 'Alice', files: { 'leap.js': GOOD } },
          { id: 'Zo\u00eb', files: { 'leap.js': GOOD } },
          { id: 'Zoe\u0308', files: { 'leap.js': WRONG } },
        ],
      },
    });
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: string };
    await batchFinished(server.batches, id);
    const st = await server.batches.status(id);
    const clash = (name: string, raw: string): string => `_${name}-${sha256(`clash\0${raw}\0${0}`).slice(0, 16)}`;
    expect(st.submissions.map((s) => `${s.id}:${s.status}`).sort()).toEqual(
      [
        `${victimId}:graded`,
        `${hashed(victimId.slice(1), victimId)}:graded`,
        `${clash('alice', 'alice')}:rejected`,
        `${clash('alice', 'Alice')}:rejected`,
        `${clash('zoe', 'Zo\u00eb')}:rejected`,
        `${clash('zoe', 'Zoe\u0308')}:rejected`,
      ].sort(),
    );
    const errors = async (sid: string) => (await server.batches.report(id, sid)).errors;
    expect(await errors(clash('alice', 'Alice'))).toEqual([
      {
        code: 'INTAKE_PATH_INVALID',
        message: `submission "${clash('alice', 'Alice')}": ${refusal('"Alice"', '"alice"', 'Alice')}`,
      },
    ]);
    // An NFC and an NFD spelling are one name: both refused, the decomposed entry shown as given.
    expect(await errors(clash('zoe', 'Zoe\u0308'))).toEqual([
      {
        code: 'INTAKE_PATH_INVALID',
        message: `submission "${clash('zoe', 'Zoe\u0308')}": ${refusal('"Zo\u00eb" ("Zoe\u0308")', '"Zo\u00eb"', hashed('zoe', 'Zo\u00eb'))}`,
      },
    ]);
    expect((await server.batches.report(id, victimId)).scores.deterministic.correctness).toBe(10);
  }, 180_000);
});

describe('ids no name can claim, in a folder (CLI)', () => {
  it("a folder named like the victim's id, a case twin pair, and `Summary` beside the batch's summary.json", async () => {
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-claims-'));
    const put = (dir: string, code: string): void => {
      mkdirSync(join(subs, dir));
      writeFileSync(join(subs, dir, 'leap.js'), code);
    };
    put(VICTIM, GOOD);
    put(victimId, WRONG);
    put('Summary', GOOD);
    put('carol', GOOD);
    put('Carol', WRONG);
    const out = `${subs}-out`;
    const code = await new Promise<number>((resolve) => {
      execFile(
        process.execPath,
        [
          join(ROOT, 'bin', 'evigrade.js'),
          'grade',
          subs,
          '--rubric',
          join(ROOT, 'rubrics', 'leap', 'rubric.yaml'),
          '--out',
          out,
          '--no-llm',
        ],
        { timeout: 180_000, env: { ...process.env, CI: 'true' } },
        (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0),
      );
    });
    expect(code).toBe(0);
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    const clash = (raw: string): string => `_carol-${sha256(`clash\0${raw}\0${0}`).slice(0, 16)}`;
    expect(Object.fromEntries(summary.submissions.map((s) => [s.id, s.status]))).toEqual({
      [victimId]: 'graded',
      [hashed(victimId.slice(1), victimId)]: 'graded',
      [nameSubmission('Summary').id]: 'graded',
      [clash('carol')]: 'rejected',
      [clash('Carol')]: 'rejected',
    });
    expect(nameSubmission('Summary').id).toBe(hashed('summary', 'Summary'));
    expect(readdirSync(out).filter((f) => /^summary\.json$/i.test(f))).toEqual(['summary.json']);
  }, 240_000);
});
