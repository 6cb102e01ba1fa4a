// POST /batches takes the same archives as `grade`: zips of folders, and LMS downloads with ?from=.
import { pack } from 'tar-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/domain/report.js';
import { batchApp, batchFinished, leapService } from '../helpers.js';
import { buildZip, renameEntry } from '../zip-builder.js';

const KEY = 'test-key-0123456789abcdef';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/zip' };
const GOOD = 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n';

let service: Awaited<ReturnType<typeof leapService>>;
beforeAll(async () => {
  service = await leapService();
});

const app = () => batchApp(service, KEY);
const finished = batchFinished;

describe('POST /batches with zips', () => {
  it('a Moodle download with ?from=moodle: one submission per student, the LMS identity in each report', async () => {
    const { a, batches } = await app();
    const body = await buildZip([
      { name: "Seán O'Brien_1042_assignsubmission_file_/leap.js", content: GOOD },
      { name: 'Zoë Núñez_77_assignsubmission_file_/leap.js', content: 'export { isLeap } from "./lib/year.js";\n' },
      { name: 'Zoë Núñez_77_assignsubmission_file_/lib/year.js', content: GOOD },
    ]);
    const res = await a.inject({ method: 'POST', url: '/batches?rubric=leap&from=moodle', headers, payload: body });
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: string };
    await finished(batches, id);
    const st = await batches.status(id);
    expect(st.submissions.map((s) => `${s.id}:${s.status}`)).toEqual([
      '_sean-o-brien-1042:graded',
      '_zoe-nunez-77:graded',
    ]);
    const sean = ReportSchema.parse(await batches.report(id, '_sean-o-brien-1042'));
    expect(sean.submission.lms).toEqual({
      system: 'moodle',
      userId: '1042',
      name: "Seán O'Brien",
      attempt: null,
      late: null,
      submittedAt: null,
      submissionId: null,
    });
    expect(sean.scores.final).toBe(10);
    expect(ReportSchema.parse(await batches.report(id, '_zoe-nunez-77')).submission.files.map((f) => f.path)).toEqual([
      'leap.js',
      'lib/year.js',
    ]);
  });

  it('a tar of a Canvas download (./ names) with ?from=auto', async () => {
    const { a, batches } = await app();
    const p = pack();
    p.entry({ name: './obrienseán_LATE_4821_99120_leap.js' }, GOOD);
    p.finalize();
    const chunks: Buffer[] = [];
    for await (const c of p) chunks.push(c as Buffer);
    const res = await a.inject({
      method: 'POST',
      url: '/batches?rubric=leap&from=auto',
      headers: { ...headers, 'content-type': 'application/x-tar' },
      payload: Buffer.concat(chunks),
    });
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: string };
    await finished(batches, id);
    const r = ReportSchema.parse(await batches.report(id, '_obriensean-4821'));
    expect([r.status, r.submission.lms?.late, r.submission.files.map((f) => f.path)]).toEqual([
      'graded',
      true,
      ['leap.js'],
    ]);
  });

  it('OpenAPI documents the archive bodies and ?from=', async () => {
    const { a } = await app();
    const post = (await a.inject({ url: '/openapi.json' })).json().paths['/batches'].post;
    expect([
      Object.keys(post.requestBody.content),
      post.parameters.find((p: { name: string }) => p.name === 'from').schema.enum,
    ]).toEqual([
      [
        'application/json',
        'application/x-tar',
        'application/gzip',
        'application/x-gzip',
        'application/zip',
        'application/x-zip-compressed',
      ],
      ['canvas', 'moodle', 'blackboard', 'gradescope', 'auto'],
    ]);
  });

  it('a plain zip of folders is read like the tar; an escaping entry is refused with 400', async () => {
    const { a, batches } = await app();
    const res = await a.inject({
      method: 'POST',
      url: '/batches?rubric=leap',
      headers,
      payload: await buildZip([
        { name: 'alice/leap.js', content: GOOD },
        { name: 'bob.js', content: GOOD },
      ]),
    });
    expect(res.statusCode).toBe(202);
    const { id } = res.json() as { id: string };
    await finished(batches, id);
    expect((await batches.status(id)).submissions.map((s) => `${s.id}:${s.status}`)).toEqual([
      'alice:graded',
      'bob:graded',
    ]);
    const bad = await a.inject({
      method: 'POST',
      url: '/batches?rubric=leap',
      headers,
      payload: renameEntry(await buildZip([{ name: 'aa/leap.js', content: GOOD }]), 'aa/leap.js', '../leap.js'),
    });
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      { error: { code: 'ARCHIVE_INVALID', message: 'archive: invalid relative path: ../leap.js' } },
    ]);
    const from = await a.inject({
      method: 'POST',
      url: '/batches?rubric=leap&from=sakai',
      headers,
      payload: await buildZip([{ name: 'alice/leap.js', content: GOOD }]),
    });
    expect([from.statusCode, from.json().error.code]).toEqual([400, 'BODY_INVALID']);
  });
});
