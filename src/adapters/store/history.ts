// The grading history: every grading of every submission as an append-only row whose hash chains the
// previous grading of the same (rubric, submission), so an edited or deleted row is detectable.
import { EvigradeError } from '../../domain/errors.js';
import type { ChainProblem, Grading, HistoryFilter, HistoryStore } from '../../domain/history.js';
import type { Report } from '../../domain/report.js';

export type { Grading, HistoryStore };
import { canonicalJson, sha256 } from '../../util/hash.js';
import { submissionClause } from './id-aliases.js';
import { migrate } from './migrations.js';
import { openSql, type Sql } from './sql.js';

interface Row {
  id: string;
  rubric_id: string;
  rubric_sha: string;
  submission_id: string;
  submission_sha: string;
  status: string;
  final: number;
  flags: string[];
  evidence_hash: string;
  report_sha: string;
  judge_model: string | null;
  requested_by: string;
  graded_at: Date | string;
  prev_hash: string | null;
  row_hash: string;
}

/** What a row's hash covers: its identity, what was graded and how, and the previous row's hash. */
function rowHash(r: Omit<Row, 'id' | 'row_hash'>): string {
  const gradedAt = new Date(r.graded_at).toISOString();
  return sha256(
    canonicalJson({
      rubric_id: r.rubric_id,
      rubric_sha: r.rubric_sha,
      submission_id: r.submission_id,
      submission_sha: r.submission_sha,
      status: r.status,
      final: r.final,
      flags: r.flags,
      evidence_hash: r.evidence_hash,
      report_sha: r.report_sha,
      judge_model: r.judge_model,
      requested_by: r.requested_by,
      graded_at: gradedAt,
      prev_hash: r.prev_hash,
    }),
  );
}

const toGrading = (r: Row): Grading => ({
  id: Number(r.id),
  rubricId: r.rubric_id,
  submissionId: r.submission_id,
  status: r.status,
  final: Number(r.final),
  flags: r.flags,
  evidenceHash: r.evidence_hash,
  reportSha: r.report_sha,
  judgeModel: r.judge_model,
  requestedBy: r.requested_by,
  gradedAt: new Date(r.graded_at).toISOString(),
  rowHash: r.row_hash,
});

/** `chains`: by stored id (a chain is per stored id); else by today's id, legacy rows included (id-aliases.ts). */
function where(filter: HistoryFilter, chains = false): { clause: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.rubricId) parts.push(`rubric_id = $${params.push(filter.rubricId)}`);
  if (filter.submissionId)
    parts.push(
      chains
        ? `submission_id = $${params.push(filter.submissionId)}`
        : submissionClause(params.push(filter.submissionId)),
    );
  if (filter.flag) parts.push(`$${params.push(filter.flag)} = any(flags)`);
  if (filter.flagged) parts.push('cardinality(flags) > 0');
  return { clause: parts.length ? `where ${parts.join(' and ')}` : '', params };
}

const COLUMNS =
  'id, rubric_id, rubric_sha, submission_id, submission_sha, status, final, flags, evidence_hash, report_sha, judge_model, requested_by, graded_at, prev_hash, row_hash';

type Tx = Pick<Sql, 'query'>;

/** Appends one grading to its chain inside the caller's transaction (a batch result and its history row commit together). */
export async function appendGrading(tx: Tx, report: Report, requestedBy: string): Promise<Grading> {
  const reportSha = sha256(canonicalJson(report));
  // Serialises appends to one chain (two replicas regrading one submission at once).
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`${report.rubric.id}/${report.submission.id}`]);
  const [prev] = await tx.query<{ row_hash: string }>(
    'select row_hash from evigrade_gradings where rubric_id = $1 and submission_id = $2 order by id desc limit 1',
    [report.rubric.id, report.submission.id],
  );
  const row = {
    rubric_id: report.rubric.id,
    rubric_sha: report.rubric.sha256,
    submission_id: report.submission.id,
    submission_sha: report.submission.sha256,
    status: report.status,
    final: report.scores.final,
    flags: report.flags.map((f) => f.code),
    evidence_hash: report.evidence.hash,
    report_sha: reportSha,
    judge_model: report.judge.model,
    requested_by: requestedBy,
    graded_at: report.generatedAt,
    prev_hash: prev?.row_hash ?? null,
  };
  const hash = rowHash(row);
  const [inserted] = await tx.query<Row>(
    `insert into evigrade_gradings (rubric_id, rubric_sha, submission_id, submission_sha, status, final, flags, evidence_hash, report, report_sha,
       backend, judge_model, tools, requested_by, graded_at, prev_hash, row_hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning ${COLUMNS}`,
    [
      row.rubric_id,
      row.rubric_sha,
      row.submission_id,
      row.submission_sha,
      row.status,
      row.final,
      row.flags,
      row.evidence_hash,
      JSON.stringify(report),
      reportSha,
      report.sandbox.backend,
      row.judge_model,
      JSON.stringify(report.tools),
      requestedBy,
      row.graded_at,
      row.prev_hash,
      hash,
    ],
  );
  return toGrading(inserted as Row);
}

/** A store failure as the one error code, naming the store and what was being done. */
export const storeError =
  (sql: Pick<Sql, 'label'>, what: string) =>
  (e: unknown): never => {
    if (e instanceof EvigradeError) throw e;
    throw new EvigradeError('STORE_UNAVAILABLE', `${sql.label}: ${what}: ${(e as Error).message}`);
  };

/** Opens (and migrates) the store at `location`: a `postgres://` URL, or a folder for the embedded Postgres. */
export async function openMigrated(location: string): Promise<Sql> {
  const sql: Sql = await openSql(location);
  try {
    await migrate(sql);
  } catch (e) {
    await sql.close();
    throw e;
  }
  return sql;
}

/** Opens (and migrates) the history at `location` on its own connection (the CLI's). */
export async function openHistory(location: string): Promise<HistoryStore> {
  const sql = await openMigrated(location);
  return { ...historyOver(sql), close: () => sql.close() };
}

/** The history over an open store; closing is the store owner's. */
export function historyOver(sql: Sql): Omit<HistoryStore, 'close'> {
  return {
    label: sql.label,
    record: (report, requestedBy) =>
      sql
        .transaction((tx) => appendGrading(tx, report, requestedBy))
        .catch(storeError(sql, `cannot record the grading of ${report.rubric.id}/${report.submission.id}`)),
    async list(filter = {}) {
      const w = where(filter);
      return (
        await sql.query<Row>(
          `select ${COLUMNS} from evigrade_gradings ${w.clause} order by rubric_id, submission_id, id`,
          w.params,
        )
      ).map(toGrading);
    },
    async verify(filter = {}) {
      const w = where({ rubricId: filter.rubricId, submissionId: filter.submissionId }, true);
      const rows = await sql.query<Row & { report: unknown }>(
        `select ${COLUMNS}, report from evigrade_gradings ${w.clause} order by rubric_id, submission_id, id`,
        w.params,
      );
      const problems: ChainProblem[] = [];
      const last = new Map<string, string>();
      for (const r of rows) {
        const key = `${r.rubric_id}\0${r.submission_id}`;
        const at = { id: Number(r.id), rubricId: r.rubric_id, submissionId: r.submission_id };
        const report = typeof r.report === 'string' ? JSON.parse(r.report) : r.report;
        if (sha256(canonicalJson(report)) !== r.report_sha)
          problems.push({ ...at, problem: 'the stored report does not match its hash (edited)' });
        if ((last.get(key) ?? null) !== r.prev_hash)
          problems.push({
            ...at,
            problem: 'the previous grading it chains to is not the one before it (a grading was removed or reordered)',
          });
        if (rowHash(r) !== r.row_hash) problems.push({ ...at, problem: 'the row does not match its hash (edited)' });
        last.set(key, r.row_hash);
      }
      return problems;
    },
    async report(id) {
      const [r] = await sql.query<{ report: unknown }>('select report from evigrade_gradings where id = $1', [id]);
      if (!r) return null;
      return (typeof r.report === 'string' ? JSON.parse(r.report) : r.report) as Report;
    },
    async latest(rubricId, submissionId) {
      const [r] = await sql.query<{ report: unknown }>(
        'select report from evigrade_gradings where rubric_id = $1 and submission_id = $2 order by id desc limit 1',
        [rubricId, submissionId],
      );
      if (!r) return null;
      return (typeof r.report === 'string' ? JSON.parse(r.report) : r.report) as Report;
    },
  };
}
