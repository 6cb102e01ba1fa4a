// Histories recorded before generated ids had their own namespace (issue 30, store migration 3): rows stay
// as recorded (append-only, chained), and each is listed under the id its student has today. An impostor
// who used a victim's old generated id as a plain name never shares the victim's history.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendGrading, historyOver } from '../../src/adapters/store/history.js';
import { MIGRATIONS, migrate } from '../../src/adapters/store/migrations.js';
import { openSql } from '../../src/adapters/store/sql.js';
import type { Report } from '../../src/domain/report.js';
import { nameSubmission } from '../../src/stages/intake/intake-names.js';
import { sha256 } from '../../src/util/hash.js';

const report = (id: string, name: string | undefined, final: number): Report =>
  ({
    rubric: { id: 'leap', sha256: 'r'.repeat(64) },
    submission: { id, ...(name !== undefined && { name }), sha256: sha256(`${id}${final}`) },
    status: 'graded',
    scores: { final },
    flags: [],
    evidence: { hash: `sha256:${'e'.repeat(64)}` },
    judge: { model: null },
    sandbox: { backend: 'bwrap' },
    tools: {},
    generatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, final)).toISOString(),
  }) as unknown as Report;

describe('store migration 3: legacy generated ids', () => {
  it("lists each legacy row under today's id of its student; the impostor's rows stay apart; chains verify", async () => {
    const sql = await openSql(mkdtempSync(join(tmpdir(), 'evigrade-idmig-')));
    try {
      // A store as version 2 left it.
      await sql.exec('create table evigrade_schema (version integer not null)');
      for (const m of MIGRATIONS.filter((x) => x.version <= 2)) {
        await sql.exec(m.sql);
        await sql.query('insert into evigrade_schema (version) values ($1)', [m.version]);
      }
      const legacy = `jose-nunez-${sha256('José Núñez').slice(0, 8)}`;
      const rows: [string, string | undefined, number][] = [
        [legacy, 'José Núñez', 6], // the victim, before
        [legacy, undefined, 10], // the impostor, who named a folder like the victim's id
        ['ada', undefined, 7],
        ['ana-lee-5', 'Ana Lee', 8], // an LMS student
      ];
      for (const [id, name, final] of rows)
        await sql.transaction((tx) => appendGrading(tx, report(id, name, final), 'cli'));
      await migrate(sql);
      const h = historyOver(sql);
      const finals = async (id: string) => (await h.list({ submissionId: id })).map((g) => [g.submissionId, g.final]);
      const jose = nameSubmission('José Núñez').id;
      expect(jose).toMatch(/^_jose-nunez-[0-9a-f]{16}$/);
      expect(await finals(jose)).toEqual([[legacy, 6]]);
      expect(await finals(legacy)).toEqual([[legacy, 10]]);
      expect(await finals('_ana-lee-5')).toEqual([['ana-lee-5', 8]]);
      expect(await finals('ada')).toEqual([['ada', 7]]);
      // A new grading of the victim goes under today's id and is listed with the old one.
      await sql.transaction((tx) => appendGrading(tx, report(jose, 'José Núñez', 9), 'cli'));
      expect((await finals(jose)).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
        [legacy, 6],
        [jose, 9],
      ]);
      expect(await h.verify()).toEqual([]);
      // Opening again changes nothing (the migration ran once).
      await migrate(sql);
      expect((await sql.query<{ n: number }>('select count(*)::int as n from evigrade_id_aliases'))[0]?.n).toBe(2);
    } finally {
      await sql.close();
    }
  }, 120_000);
});
