import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BatchRequestSchema } from '../../domain/api.js';
import { nameSubmissions } from '../../stages/intake/intake-names.js';
import type { BatchEvent, BatchInput } from '../../server/batches.js';
import { ARCHIVE_LIMITS, submissionsFromArchive } from '../../server/archive.js';
import { refuseFailingReference } from '../../server/rubric-store.js';
import { EvigradeError } from '../../domain/errors.js';
import { LMS_SYSTEMS, type LmsSystem } from '../../domain/lms.js';
import type { AppDeps } from '../deps.js';
import { bodyError } from '../errors.js';
import { isReleased, studentView } from '../../stages/student/student-view.js';

type IdParams = { Params: { id: string } };

/** `?for=student` asks for the student view; `&release=true` releases the after_due tests in it. */
const ReportQuery = z
  .object({ for: z.enum(['instructor', 'student']).optional(), release: z.enum(['true', 'false']).optional() })
  .strict();

/** A JSON batch: each submission's name gets its safe id; a refused name rejects that submission only. */
function parseJson(body: unknown): BatchInput {
  const parsed = BatchRequestSchema.safeParse(body);
  if (!parsed.success) throw bodyError(parsed.error.issues);
  const subs = parsed.data.submissions;
  const named = nameSubmissions(subs.map((s) => ({ raw: s.id, name: s.id })));
  return {
    rubric: parsed.data.rubric,
    submissions: subs.map((s, i) => {
      const { id, name, problem } = named[i] as (typeof named)[number];
      return {
        id,
        ...(name !== id && { name }),
        files: problem ? {} : s.files,
        error: problem ? { code: 'INTAKE_PATH_INVALID' as const, message: `submission "${id}": ${problem}` } : null,
      };
    }),
  };
}

async function fromArchive(
  body: Buffer,
  rubricId: string | undefined,
  from: string | undefined,
  deps: AppDeps,
): Promise<BatchInput> {
  if (!rubricId)
    throw new EvigradeError('BODY_INVALID', 'rubric: an archive upload needs ?rubric=<id>', {
      fields: [{ path: 'rubric', message: 'required' }],
    });
  const { rubric } = deps.rubrics.get(rubricId);
  const choices: readonly string[] = [...LMS_SYSTEMS, 'auto'];
  if (from !== undefined && !choices.includes(from))
    throw new EvigradeError('BODY_INVALID', `from: must be one of ${choices.join(', ')}`, {
      fields: [{ path: 'from', message: `one of ${choices.join(', ')}` }],
    });
  const submissions = await submissionsFromArchive(body, rubric, (from as LmsSystem | 'auto' | undefined) ?? null);
  if (submissions.length === 0) throw new EvigradeError('BODY_INVALID', 'archive: no submission in it');
  return { rubric: rubricId, submissions };
}

/** The archive bodies POST /batches takes (a tar, gzipped or not, or a zip; the content is sniffed, not trusted). */
export const ARCHIVE_TYPES = [
  'application/x-tar',
  'application/gzip',
  'application/x-gzip',
  'application/zip',
  'application/x-zip-compressed',
] as const;

export async function batchRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // A tar, gzipped tar or zip of `<submission-id>/<files>` (or top-level single files), with ?rubric=<id>;
  // with ?from=canvas|moodle|blackboard|gradescope|auto, an LMS download instead.
  for (const type of ARCHIVE_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: ARCHIVE_LIMITS.maxBytes }, (_req, body, done) =>
      done(null, body),
    );
  }
  app.post<{ Querystring: { rubric?: string; from?: string; allow_failing_reference?: string } }>(
    '/batches',
    { bodyLimit: deps.batchBodyLimit ?? ARCHIVE_LIMITS.maxBytes },
    async (req, reply) => {
      if (deps.slots.stats().draining)
        throw new EvigradeError('SHUTTING_DOWN', 'the server is shutting down and takes no new batches');
      const input = Buffer.isBuffer(req.body)
        ? await fromArchive(req.body, req.query.rubric, req.query.from, deps)
        : parseJson(req.body);
      refuseFailingReference(deps.rubrics.get(input.rubric), req.query.allow_failing_reference === 'true');
      const status = await deps.batches.create(input, req.keyId ?? 'unknown');
      return reply.code(202).header('location', `/batches/${status.id}`).send(status);
    },
  );
  app.get<IdParams>('/batches/:id', async (req) => deps.batches.status(req.params.id));
  app.get<IdParams>('/batches/:id/summary', async (req) => deps.batches.summary(req.params.id));
  // ?for=student: the student view (what that student may read under the rubric's policy), not the report.
  app.get<{ Params: { id: string; submission: string }; Querystring: unknown }>(
    '/batches/:id/reports/:submission',
    async (req) => {
      const q = ReportQuery.safeParse(req.query);
      if (!q.success) throw bodyError(q.error.issues);
      const report = await deps.batches.report(req.params.id, req.params.submission);
      if (q.data.for !== 'student') return report;
      return studentView(report, { released: isReleased(report, q.data.release === 'true', new Date()) });
    },
  );

  /** Server-sent events: the current progress at once, one event per finished submission, then `done`. */
  app.get<IdParams>('/batches/:id/events', async (req, reply) => {
    // Subscribed before the status is read, so a submission (or the end) finishing in between is not missed.
    let forward: ((e: BatchEvent) => void) | null = null;
    const early: BatchEvent[] = [];
    const stop = deps.batches.subscribe(req.params.id, (e) => (forward ? forward(e) : early.push(e)));
    let status;
    try {
      status = await deps.batches.status(req.params.id);
    } catch (e) {
      stop();
      throw e;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (event: string, data: unknown): boolean =>
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('progress', { done: status.done, total: status.total });
    if (status.state === 'done') {
      stop();
      send('done', { done: status.done, total: status.total });
      res.end();
      return;
    }
    forward = (e) => {
      send(e.type, e);
      if (e.type === 'done') {
        stop();
        res.end();
      }
    };
    // What arrived while the status was read and is not in it yet.
    for (const e of early) if (e.type !== 'submission' || e.done > status.done) forward(e);
    res.on('close', stop);
  });
}
