// Batches in the store, shared by every `serve` replica: a submission is claimed under a lease (FOR UPDATE SKIP
// LOCKED, so two replicas never take the same one), renewed while it runs and taken over when it runs out; its
// result and its history row commit together, first result wins; progress goes out by NOTIFY.
import type { BatchStore, Claim, StoreEvent, StoredBatch, StoredInput, StoredResult } from '../../domain/batches.js';
import { appendGrading, storeError } from './history.js';
import type { Sql } from './sql.js';

const CHANNEL = 'evigrade_batches';

interface BatchRow {
  id: string;
  origin: 'api' | 'cli';
  rubric_id: string;
  rubric_sha: string;
  requested_by: string;
  created_at: Date | string;
  total: number;
  label: string;
  summarised_at: Date | string | null;
}

const iso = (d: Date | string): string => new Date(d).toISOString();
const toBatch = (r: BatchRow): StoredBatch => ({
  id: r.id,
  origin: r.origin,
  rubricId: r.rubric_id,
  rubricSha: r.rubric_sha,
  requestedBy: r.requested_by,
  createdAt: iso(r.created_at),
  total: Number(r.total),
  label: r.label,
  summarisedAt: r.summarised_at === null ? null : iso(r.summarised_at),
});
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

type Tx = Pick<Sql, 'query'>;
const notify = (tx: Tx, e: StoreEvent): Promise<unknown> =>
  tx.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(e)]);

async function insertBatch(tx: Tx, b: StoredBatch): Promise<void> {
  await tx.query(
    `insert into evigrade_batches (id, origin, rubric_id, rubric_sha, requested_by, created_at, total, label, summarised_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [b.id, b.origin, b.rubricId, b.rubricSha, b.requestedBy, b.createdAt, b.total, b.label, b.summarisedAt],
  );
}

/** The batch store over an open (migrated) store; closing is the store owner's. */
export function batchesOver(sql: Sql): BatchStore {
  const fail = (what: string) => storeError(sql, what);
  return {
    label: sql.label,
    create: (batch, inputs) =>
      sql
        .transaction(async (tx) => {
          await insertBatch(tx, batch);
          for (const [ord, s] of inputs.entries()) {
            await tx.query(
              'insert into evigrade_batch_submissions (batch_id, submission_id, ord, input) values ($1, $2, $3, $4)',
              [batch.id, s.id, ord, s.input === null ? null : JSON.stringify(s.input)],
            );
          }
          await notify(tx, { type: 'created', batch: batch.id, done: 0, total: batch.total });
        })
        .catch(fail(`cannot store batch ${batch.id}`)),

    async get(id) {
      // A service batch's summary time is its last result's (so two exports of it are the same bytes).
      const [b] = await sql
        .query<BatchRow>(
          `select b.id, b.origin, b.rubric_id, b.rubric_sha, b.requested_by, b.created_at, b.total, b.label,
                coalesce(b.summarised_at, (select max(done_at) from evigrade_batch_submissions where batch_id = b.id)) as summarised_at
         from evigrade_batches b where b.id = $1`,
          [id],
        )
        .catch(fail(`cannot read batch ${id}`));
      if (!b) return null;
      // The name is in the input (API batches) or, for a CLI batch recorded from its files, in the report.
      const rows = await sql.query<{
        submission_id: string;
        name: string | null;
        status: string | null;
        final: number | null;
      }>(
        `select submission_id, coalesce(input->>'name', report::jsonb #>> '{submission,name}') as name, status, final
         from evigrade_batch_submissions where batch_id = $1 order by ord`,
        [id],
      );
      const results: StoredResult[] = rows.map((r) => ({
        submissionId: r.submission_id,
        name: r.name,
        status: r.status,
        final: r.final === null ? null : Number(r.final),
      }));
      return { batch: toBatch(b), results };
    },

    async report(batch, submission) {
      const [r] = await sql
        .query<{ report: string | null }>(
          'select report from evigrade_batch_submissions where batch_id = $1 and submission_id = $2',
          [batch, submission],
        )
        .catch(fail(`cannot read batch ${batch}`));
      return r?.report ?? null;
    },

    async reports(batch) {
      const rows = await sql
        .query<{ report: string }>(
          'select report from evigrade_batch_submissions where batch_id = $1 and report is not null order by ord',
          [batch],
        )
        .catch(fail(`cannot read batch ${batch}`));
      return rows.map((r) => r.report);
    },

    async claim(owner, max, leaseMs) {
      if (max <= 0) return [];
      const rows = await sql
        .transaction((tx) =>
          tx.query<{
            batch_id: string;
            submission_id: string;
            input: unknown;
            rubric_id: string;
            requested_by: string;
          }>(
            `with open as (
           select s.batch_id, s.submission_id from evigrade_batch_submissions s join evigrade_batches b on b.id = s.batch_id
           where s.report is null and s.input is not null and (s.lease_until is null or s.lease_until < clock_timestamp())
           order by b.created_at, s.ord limit $2 for update of s skip locked)
         update evigrade_batch_submissions s set lease_owner = $1, lease_until = clock_timestamp() + $3::int * interval '1 millisecond'
         from open, evigrade_batches b
         where s.batch_id = open.batch_id and s.submission_id = open.submission_id and b.id = s.batch_id
         returning s.batch_id, s.submission_id, s.input, b.rubric_id, b.requested_by`,
            [owner, max, leaseMs],
          ),
        )
        .catch(fail('cannot claim batch work'));
      return rows.map((r): Claim => ({
        batchId: r.batch_id,
        submissionId: r.submission_id,
        rubricId: r.rubric_id,
        requestedBy: r.requested_by,
        input: json<StoredInput>(r.input),
      }));
    },

    async renew(owner, held, leaseMs) {
      for (const h of held) {
        await sql.query(
          `update evigrade_batch_submissions set lease_until = clock_timestamp() + $4::int * interval '1 millisecond'
                         where batch_id = $1 and submission_id = $2 and lease_owner = $3 and report is null`,
          [h.batchId, h.submissionId, owner, leaseMs],
        );
      }
    },

    async release(owner) {
      await sql.query(
        'update evigrade_batch_submissions set lease_owner = null, lease_until = null where lease_owner = $1 and report is null',
        [owner],
      );
    },

    complete: (batch, submission, report, text, requestedBy) =>
      sql
        .transaction(async (tx) => {
          // The batch row's lock orders completions of one batch, so exactly one of them sees the last result in.
          const [b] = await tx.query<{ total: number }>('select total from evigrade_batches where id = $1 for update', [
            batch,
          ]);
          const [row] = await tx.query<{ finished: boolean }>(
            'select report is not null as finished from evigrade_batch_submissions where batch_id = $1 and submission_id = $2',
            [batch, submission],
          );
          if (!b || !row || row.finished) return false;
          const grading = await appendGrading(tx, report, requestedBy);
          await tx.query(
            `update evigrade_batch_submissions set report = $3, status = $4, final = $5, grading_id = $6, lease_owner = null, lease_until = null, done_at = clock_timestamp()
                      where batch_id = $1 and submission_id = $2`,
            [batch, submission, text, report.status, report.scores.final, grading.id],
          );
          const [c] = await tx.query<{ done: number }>(
            'select count(*)::int as done from evigrade_batch_submissions where batch_id = $1 and report is not null',
            [batch],
          );
          const done = Number(c?.done),
            total = Number(b.total);
          await notify(tx, {
            type: 'submission',
            batch,
            submission,
            status: report.status,
            final: report.scores.final,
            done,
            total,
          });
          if (done === total) await notify(tx, { type: 'done', batch, done, total });
          return true;
        })
        .catch(fail(`cannot keep the result of ${batch}/${submission}`)),

    async started(batch, submission, where) {
      const [c] = await sql
        .query<{ done: number; total: number }>(
          'select count(s.report)::int as done, b.total from evigrade_batches b join evigrade_batch_submissions s on s.batch_id = b.id where b.id = $1 group by b.total',
          [batch],
        )
        .catch(fail('cannot send progress'));
      await notify(sql, {
        type: 'started',
        batch,
        submission,
        where,
        done: Number(c?.done ?? 0),
        total: Number(c?.total ?? 0),
      }).catch(fail('cannot send progress'));
    },

    async unfinished() {
      const [c] = await sql
        .query<{ n: number }>(
          'select count(*)::int as n from evigrade_batch_submissions where report is null and input is not null',
        )
        .catch(fail('cannot read batches'));
      return Number(c?.n ?? 0);
    },

    listen: (fn, reconnected) =>
      sql.listen(
        CHANNEL,
        (payload) => {
          try {
            fn(JSON.parse(payload) as StoreEvent);
          } catch {
            // Not ours (another program on the channel): ignored.
          }
        },
        reconnected,
      ),

    recordCli: (batch, reports) =>
      sql
        .transaction(async (tx) => {
          await insertBatch(tx, batch);
          for (const [ord, r] of reports.entries()) {
            const parsed = JSON.parse(r.text) as { status: string; scores: { final: number } };
            await tx.query(
              `insert into evigrade_batch_submissions (batch_id, submission_id, ord, report, status, final, done_at)
                        values ($1, $2, $3, $4, $5, $6, clock_timestamp())`,
              [batch.id, r.id, ord, r.text, parsed.status, parsed.scores.final],
            );
          }
        })
        .catch(fail(`cannot record batch ${batch.id}`)),

    async list() {
      return (
        await sql
          .query<BatchRow>('select * from evigrade_batches order by created_at desc, id')
          .catch(fail('cannot list batches'))
      ).map(toBatch);
    },
  };
}
