import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BatchRequestSchema, BatchStatusSchema, ErrorBodySchema, GradeRequestSchema } from '../../domain/api.js';
import { LMS_SYSTEMS } from '../../domain/lms.js';
import { ReportSchema, SummarySchema } from '../../domain/report.js';
import { StudentReportSchema } from '../../domain/student.js';
import { ARCHIVE_TYPES } from './batches.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
const errors = {
  '400': { description: 'invalid body', ...json('Error') },
  '401': { description: 'no API key', ...json('Error') },
  '403': { description: 'bad API key', ...json('Error') },
  '429': { description: 'rate limited', ...json('Error') },
};

/** OpenAPI 3.1, generated from the same zod schemas that validate requests and reports. */
export function openapiDocument(): Record<string, unknown> {
  const schemas = Object.fromEntries(
    Object.entries({
      GradeRequest: GradeRequestSchema,
      BatchRequest: BatchRequestSchema,
      BatchStatus: BatchStatusSchema,
      Report: ReportSchema,
      Summary: SummarySchema,
      StudentReport: StudentReportSchema,
      Error: ErrorBodySchema,
    }).map(([k, v]) => [k, z.toJSONSchema(v, { target: 'draft-2020-12', io: 'input' })]),
  );
  const byId = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Evigrade',
      version: '1',
      description: 'Evidence-grounded code grading. Bearer API keys (EVIGRADE_API_KEYS).',
    },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/grade': {
        post: {
          summary: 'Grade one submission',
          requestBody: json('GradeRequest'),
          responses: {
            '200': { description: 'the audit report', ...json('Report') },
            '503': { description: 'queue full or shutting down (Retry-After)', ...json('Error') },
            ...errors,
          },
        },
      },
      '/rubrics': {
        get: { summary: 'Rubrics (public fields only)', responses: { '200': { description: 'rubrics' } } },
      },
      '/rubrics/{id}': {
        get: {
          summary: 'One rubric (public fields only)',
          parameters: byId,
          responses: { '200': { description: 'rubric' }, '404': json('Error') },
        },
      },
      '/rubrics/{id}/audit': {
        post: {
          summary: "Audit the rubric's hidden tests (evigrade audit) as a job; the one already running for it if any",
          parameters: byId,
          responses: {
            '202': { description: 'the audit job (Location: /audits/{id})' },
            '404': json('Error'),
            '503': { description: 'shutting down', ...json('Error') },
          },
        },
      },
      '/audits/{id}': {
        get: {
          summary: 'An audit job: state, progress, score once done',
          parameters: byId,
          responses: { '200': { description: 'audit status' }, '404': json('Error') },
        },
      },
      '/audits/{id}/events': {
        get: {
          summary: 'Server-sent events: progress (phase, done, total; the mutant and its status), then done or failed',
          parameters: byId,
          responses: { '200': { description: 'text/event-stream' } },
        },
      },
      '/audits/{id}/result': {
        get: {
          summary:
            "audit.json once done (schemas/audit.schema.json); 202 and the status while it runs; the audit's error if it failed",
          parameters: byId,
          responses: {
            '200': { description: 'audit.json' },
            '202': { description: 'still running' },
            '404': json('Error'),
          },
        },
      },
      '/batches': {
        post: {
          summary:
            'Start a batch: JSON, or an archive (tar, gzipped tar, zip) with ?rubric=; ?from= reads it as an LMS download',
          parameters: [
            {
              name: 'rubric',
              in: 'query',
              required: false,
              schema: { type: 'string' },
              description: 'required with an archive body',
            },
            {
              name: 'from',
              in: 'query',
              required: false,
              schema: { enum: [...LMS_SYSTEMS, 'auto'] },
              description: "the archive is this LMS's bulk download",
            },
          ],
          requestBody: {
            content: {
              ...json('BatchRequest').content,
              ...Object.fromEntries(ARCHIVE_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
            },
          },
          responses: { '202': { description: 'accepted', ...json('BatchStatus') }, ...errors },
        },
      },
      '/batches/{id}': {
        get: {
          summary: 'Batch progress',
          parameters: byId,
          responses: { '200': json('BatchStatus'), '404': json('Error') },
        },
      },
      '/batches/{id}/events': {
        get: {
          summary: 'Server-sent events: progress, started (where each submission runs), submission, done',
          parameters: byId,
          responses: { '200': { description: 'text/event-stream' } },
        },
      },
      '/batches/{id}/reports/{submission}': {
        get: {
          summary: 'One report of a batch, or (?for=student) what that student may see of it',
          parameters: [
            ...byId,
            { name: 'submission', in: 'path', required: true, schema: { type: 'string' } },
            {
              name: 'for',
              in: 'query',
              required: false,
              schema: { enum: ['instructor', 'student'] },
              description: "student: the student view under the rubric's visibility policy (a StudentReport)",
            },
            {
              name: 'release',
              in: 'query',
              required: false,
              schema: { enum: ['true', 'false'] },
              description: 'with for=student: show the after_due tests (as after the release date)',
            },
          ],
          responses: {
            '200': {
              description: 'a Report, or a StudentReport with for=student',
              content: {
                'application/json': {
                  schema: {
                    oneOf: [{ $ref: '#/components/schemas/Report' }, { $ref: '#/components/schemas/StudentReport' }],
                  },
                },
              },
            },
            '400': json('Error'),
            '404': json('Error'),
          },
        },
      },
      '/batches/{id}/summary': {
        get: { summary: 'Batch summary', parameters: byId, responses: { '200': json('Summary') } },
      },
      '/submissions/{id}/history': {
        get: {
          summary:
            'Every recorded grading of a submission (servers started with --db); ?rubric=, ?flag=CODE and ?flagged=true narrow it',
          parameters: byId,
          responses: { '200': { description: '{ gradings: [...] }' }, '404': json('Error') },
        },
      },
      '/submissions/{id}/overrides': {
        post: {
          summary:
            "An instructor's decision on a rubric item ({rubric, item, applies, why, by?}): the latest grading again with it, recorded as a new grading; every regrade keeps it (servers started with --db)",
          parameters: byId,
          responses: { '201': { description: '{ grading, report }' }, '400': json('Error'), '404': json('Error') },
        },
      },
      '/history': {
        get: {
          summary:
            'Recorded gradings of a rubric (?rubric=), carrying a flag code (?flag=), or flagged at all (?flagged=true); combine them for the flagged submissions of a rubric',
          responses: { '200': { description: '{ gradings: [...] }' }, '404': json('Error') },
        },
      },
      '/healthz': { get: { security: [], summary: 'Liveness', responses: { '200': { description: 'ok' } } } },
      '/readyz': {
        get: {
          security: [],
          summary: 'Readiness: sandbox and judge',
          responses: { '200': { description: 'ready' }, '503': { description: 'not ready' } },
        },
      },
    },
  };
}

export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  const doc = openapiDocument();
  app.get('/openapi.json', async () => doc);
}
