// POST /grade for the hostile suites: an inline rubric served by a one-rubric store, graded by the first isolating
// backend through the real HTTP app (inject), the report validated by the report schema.
import pino from 'pino';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvigradeError } from '../../src/domain/errors.js';
import { ReportSchema, type Report } from '../../src/domain/report.js';
import { buildApp } from '../../src/http/app.js';
import { createBatchService } from '../../src/server/batches.js';
import { createSlots } from '../../src/server/slots.js';
import { collectExpected } from '../../src/engine.js';
import { createLocalQueue } from '../../src/queue/local.js';
import { analysisPool, firstBackend, inlineRubric, sandboxFor } from '../helpers.js';

const KEY = 'hostile-http-key';

/** Grades `files` against the inline rubric of `tests` over POST /grade. */
export async function gradeOverHttp(tests: Record<string, string>, files: Record<string, string>): Promise<Report> {
  const sandbox = await sandboxFor(await firstBackend());
  const rubric = inlineRubric(tests);
  const loaded = { rubric, expected: await collectExpected(rubric, sandbox) };
  const rubrics = {
    get: (id: string) => {
      if (id !== rubric.spec.id) throw new EvigradeError('RUBRIC_NOT_FOUND', `no rubric "${id}"`);
      return loaded;
    },
    list: () => [loaded],
  };
  const ports = {
    queue: createLocalQueue({ sandbox, analysis: analysisPool(), now: () => new Date(), tools: {}, maxResumes: 2 }, 1),
    judge: null,
    now: () => new Date(),
    tools: {},
  };
  const slots = createSlots(1, 4);
  const app = await buildApp({
    rubrics,
    slots,
    ports,
    apiKeys: [KEY],
    ratePerMinute: 1000,
    logger: false,
    batches: createBatchService(
      mkdtempSync(join(tmpdir(), 'evigrade-hostile-http-')),
      rubrics,
      slots,
      ports,
      pino({ level: 'silent' }),
    ),
    judgeInfo: () => ({ configured: 0 }),
  });
  try {
    const res = await app.inject({
      method: 'POST',
      url: '/grade',
      headers: { authorization: `Bearer ${KEY}` },
      payload: { rubric: rubric.spec.id, files },
    });
    if (res.statusCode !== 200) throw new Error(`POST /grade answered ${res.statusCode}: ${res.body}`);
    return ReportSchema.parse(res.json());
  } finally {
    await app.close();
  }
}
