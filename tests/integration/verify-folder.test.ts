// `evigrade verify <folder>` (issue 31): every report of a batch, its summary.json and grades.csv; a line each, a
// total, exit 0 when all hold and 6 naming each file that does not. On the committed sample batch (reports graded
// for real), through the CLI.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { gradesCsv } from '../../src/stages/score/summary.js';
import { ROOT } from '../helpers.js';

const SAMPLE = join(ROOT, 'tests', 'fixtures', 'report-page', 'leap');
const verify = (path: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(process.execPath, [join(ROOT, 'bin', 'evigrade.js'), 'verify', path], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

function batch(): { dir: string; ids: string[]; read: (id: string) => Report } {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-verify-folder-'));
  cpSync(SAMPLE, dir, { recursive: true });
  const ids = readdirSync(dir)
    .filter((n) => n.endsWith('.json') && n !== 'summary.json')
    .map((n) => n.slice(0, -5))
    .sort();
  const read = (id: string): Report => JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as Report;
  writeFileSync(join(dir, 'grades.csv'), gradesCsv(ids.map(read)));
  return { dir, ids, read };
}

describe('verify <folder>', () => {
  it('verifies every report, summary.json and grades.csv: a line each and a total, exit 0', async () => {
    const { dir, ids, read } = batch();
    const r = await verify(dir);
    expect([r.code, r.stderr, r.stdout]).toEqual([
      0,
      '',
      [
        ...ids.map((id) => `${id}.json: verified (${read(id).evidence.hash})`),
        'summary.json: verified',
        'grades.csv: verified',
        `${dir}: ${ids.length} of ${ids.length} report(s) verified; summary.json and grades.csv match them`,
        '',
      ].join('\n'),
    ]);
  });

  it('exits 6 naming each report that was edited, and summary.json and grades.csv when they no longer match', async () => {
    const { dir, ids, read } = batch();
    const [first, second] = ids as [string, string];
    const edited = read(first);
    edited.scores.final = 9.99;
    writeFileSync(join(dir, `${first}.json`), JSON.stringify(edited));
    const csv = readFileSync(join(dir, 'grades.csv'), 'utf8').split('\n');
    csv[2] = (csv[2] ?? '').replace('"graded"', '"rejected"');
    writeFileSync(join(dir, 'grades.csv'), csv.join('\n'));
    writeFileSync(join(dir, `${second}.json`), '{"not": "a report"}');
    const r = await verify(dir);
    const lines = r.stdout.split('\n');
    expect(r.code).toBe(6);
    expect(lines.filter((l) => !l.startsWith('    '))).toEqual([
      `${first}.json: 1 difference(s)`,
      `${second}.json: not an Evigrade report (it has no submission, scores and evidence)`,
      ...ids.slice(2).map((id) => `${id}.json: verified (${read(id).evidence.hash})`),
      'summary.json: 6 difference(s) from the reports beside it',
      'grades.csv: 1 difference(s) from the reports beside it',
      '',
    ]);
    expect(lines[1]).toMatch(/^ {4}scores\.final: the file says 9\.99, recomputed \d/);
    // summary.json counted the report that is no longer one, and the edited report's old final score.
    const start = lines.findIndex((l) => l.startsWith('summary.json'));
    expect(lines.slice(start + 1, start + 7).map((l) => l.trim().split(':')[0])).toEqual([
      'count',
      'graded',
      'meanFinal',
      'flagged',
      'submissions',
      'judge',
    ]);
    expect(r.stderr).toContain(
      `${dir} does not verify: ${ids.length - 2} of ${ids.length} report(s) verified; differences in ${first}.json, ${second}.json, summary.json, grades.csv`,
    );
  });
});
