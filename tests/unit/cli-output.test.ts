// What `evigrade grade` prints for people (issue 31): the end-of-run summary and warnings as plain lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { humanLine } from '../../src/cli/log.js';
import { runSummaryText } from '../../src/report/run-summary.js';
import { ReportSchema, SummarySchema, type Report } from '../../src/domain/report.js';
import { ROOT } from '../helpers.js';

const DIR = join(ROOT, 'tests', 'fixtures', 'report-page', 'leap');
const reports = (): Report[] =>
  readdirSync(DIR)
    .filter((n) => n !== 'summary.json')
    .map((n) => ReportSchema.parse(JSON.parse(readFileSync(join(DIR, n), 'utf8'))));
const summary = SummarySchema.parse(JSON.parse(readFileSync(join(DIR, 'summary.json'), 'utf8')));

describe('the end-of-run summary', () => {
  it('gives counts, the mean, each flagged student with their flags, rejections, errors and where the reports are', () => {
    const all = reports();
    const text = runSummaryText(
      { reports: all, summary, graded: 5, reused: 3, interrupted: false },
      '/out/leap',
      'Leap year',
    );
    const flagged = all
      .filter((r) => r.flags.some((f) => f.severity !== 'info'))
      .map(
        (r) =>
          `    ${r.submission.id}: ${r.flags
            .filter((f) => f.severity !== 'info')
            .map((f) => f.code)
            .join(', ')}`,
      );
    expect(flagged.length).toBeGreaterThan(0);
    expect(text).toBe(
      [
        `Graded ${summary.count} submissions for "Leap year" (leap).`,
        `  ${summary.graded} graded, ${summary.rejected} rejected, ${summary.errored} grader errors (5 processed now, 3 kept from an earlier run)`,
        `  mean final score ${summary.meanFinal.toFixed(2)} / 10 over the ${summary.graded} graded`,
        `  flagged (${flagged.length}):`,
        ...flagged,
        'Reports: /out/leap/ (one <id>.json per student, summary.json, grades.csv); `evigrade report /out/leap` writes report.html',
        '',
      ].join('\n'),
    );
  });

  it('never prints a control, bidi or zero-width character of a name; names the batch recorded in the history', () => {
    const flaggedOne = reports().find((r) => r.flags.some((f) => f.severity !== 'info')) as Report;
    const named = { ...flaggedOne, submission: { ...flaggedOne.submission, name: 'ana\u001b[2J\u202Eevil' } };
    const text = runSummaryText(
      { reports: [named], summary: { ...summary, count: 1 }, graded: 1, reused: 0, interrupted: false },
      'out',
      'T\u0007',
      'cli-0123',
    );
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(text).toContain('"T⟨U+0007⟩"');
    expect(text).toContain('Recorded in the grading history as batch cli-0123');
    expect(text).toContain(`ana⟨U+001B⟩[2J⟨U+202E⟩evil (${named.submission.id}): `);
  });
});

describe('warnings without --log json', () => {
  it('read as one plain line, with their fields', () => {
    expect(
      humanLine('{"level":40,"time":1,"pid":2,"hostname":"h","cmd":"grade","sandbox":"bwrap","msg":"no effect"}'),
    ).toBe('evigrade: warning: no effect (sandbox=bwrap)\n');
    expect(humanLine('{"level":50,"msg":"lost","unmatched":["a","b"]}')).toBe(
      'evigrade: error: lost (unmatched=["a","b"])\n',
    );
  });
});
