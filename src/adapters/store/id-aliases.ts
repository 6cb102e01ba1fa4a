// Gradings recorded before generated ids had their own namespace (issue 30) are kept as they are — rows are
// append-only and hash-chained — and mapped to today's ids here. A legacy row belongs to a generated id when
// its report carries a name (plain ids carry none): an intake-made id (`<words>-<8 hex>` of the name) becomes
// today's id of that name; an LMS id (or a clash twin) becomes itself behind the `_` mark.
import { baseId, legacyBaseId } from '../../stages/intake/intake-names.js';
import type { Sql } from './sql.js';

/** The id a legacy row of `legacyId` carrying `name` has now. */
export function currentId(legacyId: string, name: string): string {
  return legacyBaseId(name) === legacyId ? baseId(name) : `_${legacyId.toLowerCase()}`;
}

/** Fills evigrade_id_aliases from the gradings already recorded (migration 3). */
export async function fillIdAliases(tx: Pick<Sql, 'query'>): Promise<void> {
  const rows = await tx.query<{ submission_id: string; name: string }>(
    `select distinct submission_id, report->'submission'->>'name' as name from evigrade_gradings
     where report->'submission'->>'name' is not null and left(submission_id, 1) <> '_'`,
  );
  for (const r of rows) {
    if (r.name === r.submission_id) continue;
    await tx.query('insert into evigrade_id_aliases (legacy_id, name, submission_id) values ($1, $2, $3)', [
      r.submission_id,
      r.name,
      currentId(r.submission_id, r.name),
    ]);
  }
}

/**
 * The gradings of one submission id (`$n`): its own rows, less legacy rows that now belong to a generated id,
 * plus the legacy rows that belong to it.
 */
export const submissionClause = (n: number): string => `(
  (submission_id = $${n} and not exists (select 1 from evigrade_id_aliases a
     where a.legacy_id = evigrade_gradings.submission_id and a.name = evigrade_gradings.report->'submission'->>'name'))
  or exists (select 1 from evigrade_id_aliases a where a.submission_id = $${n}
     and a.legacy_id = evigrade_gradings.submission_id and a.name = evigrade_gradings.report->'submission'->>'name'))`;
