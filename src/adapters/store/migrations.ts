// The history schema, in versions applied in order at start. A database made by a newer evigrade (a higher
// version than we know) is refused rather than written to; one with tables we did not make is refused too.
import { EvigradeError } from '../../domain/errors.js';
import { fillIdAliases } from './id-aliases.js';
import type { Sql } from './sql.js';

type Tx = Pick<Sql, 'query' | 'exec'>;

export const MIGRATIONS: readonly {
  readonly version: number;
  readonly sql: string;
  /** Data the SQL cannot compute, filled in the same transaction. */
  readonly run?: (tx: Tx) => Promise<void>;
}[] = [
  {
    version: 1,
    sql: `
create table evigrade_gradings (
  id bigserial primary key,
  rubric_id text not null,
  rubric_sha text not null,
  submission_id text not null,
  submission_sha text not null,
  status text not null,
  final double precision not null,
  flags text[] not null,
  evidence_hash text not null,
  report jsonb not null,
  report_sha text not null,
  backend text not null,
  judge_model text,
  tools jsonb not null,
  requested_by text not null,
  graded_at timestamptz not null,
  prev_hash text,
  row_hash text not null unique
);
create index evigrade_gradings_submission on evigrade_gradings (rubric_id, submission_id, id);
create index evigrade_gradings_flags on evigrade_gradings using gin (flags);
-- Append-only: a regrade is a new row, never an edit. (An owner can drop the trigger; the hash chain still tells.)
create function evigrade_append_only() returns trigger language plpgsql as $$
begin raise exception 'evigrade_gradings is append-only'; end $$;
create trigger evigrade_gradings_append_only before update or delete on evigrade_gradings
  for each row execute function evigrade_append_only();
`,
  },
  {
    version: 2,
    sql: `
-- Batches shared by every serve replica (and CLI batches recorded for export). A submission is claimed by one
-- replica at a time (lease_owner until lease_until, renewed while it runs); a lease that runs out is taken over.
create table evigrade_batches (
  id text primary key,
  origin text not null,
  rubric_id text not null,
  rubric_sha text not null,
  requested_by text not null,
  created_at timestamptz not null,
  total integer not null,
  -- The backend a summary names when no report does, and (CLI batches) the summary's own time, for export.
  label text not null,
  summarised_at timestamptz
);
create table evigrade_batch_submissions (
  batch_id text not null references evigrade_batches (id),
  submission_id text not null,
  ord integer not null,
  input jsonb,
  -- The report as its file holds it (text: jsonb would reorder its keys, and exports are byte for byte).
  report text,
  status text,
  final double precision,
  grading_id bigint references evigrade_gradings (id),
  lease_owner text,
  lease_until timestamptz,
  done_at timestamptz,
  primary key (batch_id, submission_id)
);
create index evigrade_batch_submissions_open on evigrade_batch_submissions (lease_until) where report is null;
`,
  },
  {
    version: 3,
    sql: `
-- Generated ids moved to their own namespace (a leading "_", which no plain name may use: issue 30). Gradings
-- recorded before keep their rows, ids and chains (append-only); this table says which of them belong to which
-- id now: a legacy id and the name the report carries -> today's id. A name alone never matches a legacy row:
-- a plain name that happens to equal an old generated id (an impostor) has no name in its reports.
create table evigrade_id_aliases (
  legacy_id text not null,
  name text not null,
  submission_id text not null,
  primary key (legacy_id, name)
);
create index evigrade_id_aliases_submission on evigrade_id_aliases (submission_id);
`,
    run: fillIdAliases,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** Brings the schema up to SCHEMA_VERSION; refuses a newer one. Safe to run from several processes at once. */
export async function migrate(sql: Sql): Promise<void> {
  await sql.transaction(async (tx) => {
    // One migrator at a time across processes (replicas starting together).
    await tx.query('select pg_advisory_xact_lock(7261934)');
    await tx.query('create table if not exists evigrade_schema (version integer not null)');
    const [row] = await tx.query<{ version: number | null }>('select max(version) as version from evigrade_schema');
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new EvigradeError(
        'STORE_SCHEMA',
        `${sql.label}: the history schema is version ${current}, newer than this evigrade knows (${SCHEMA_VERSION}); upgrade evigrade`,
      );
    }
    for (const m of MIGRATIONS.filter((x) => x.version > current)) {
      await tx.exec(m.sql);
      await m.run?.(tx);
      await tx.query('insert into evigrade_schema (version) values ($1)', [m.version]);
    }
  });
}
