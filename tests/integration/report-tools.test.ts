// verify and the gradebook exports, on reports graded for real.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import { gradescopeResults, prairielearnResults } from '../../src/report/exports.js';
import { checkReport, compareRerun } from '../../src/report/verify.js';
import { canonicalJson, sha256 } from '../../src/util/hash.js';
import { gradeInline, inlineRubric, firstBackend, ROOT } from '../helpers.js';

const TESTS = {
  't.test.js':
    "const { f } = require('./solution');\ntest('one', () => expect(f(1)).toBe(2));\ntest('two', () => expect(f(2)).toBe(4));\n",
};
const rubric = inlineRubric(TESTS);
let backend: ProcessBackendId;
let report: Report;
/** The same submission under a rubric that shows test one, releases test two after the due date, hints at it. */
let shown: Report;
const SOLUTION = { 'solution.js': 'var f = (x) => (x === 1 ? 2 : 5);\nmodule.exports = { f };\n' };
beforeAll(async () => {
  backend = await firstBackend();
  report = await gradeInline(backend, rubric, SOLUTION);
  shown = await gradeInline(
    backend,
    inlineRubric(TESTS, { visibility: { one: 'visible', two: 'after_due' }, hint: { two: 'Double it.' } }),
    SOLUTION,
  );
});
const edited = (fn: (r: Report) => void): Report => {
  const copy = structuredClone(report);
  fn(copy);
  return copy;
};

describe('verify', () => {
  it('an untouched report verifies, and carries the text it graded', () => {
    expect(checkReport(report)).toEqual([]);
    expect(report.submission.files.map((f) => [f.path, f.text])).toEqual([
      ['solution.js', 'var f = (x) => (x === 1 ? 2 : 5);\nmodule.exports = { f };\n'],
    ]);
  });

  it.each([
    [
      'a raised final score',
      (r: Report) => {
        r.scores.final = 10;
      },
      ['scores.final'],
    ],
    [
      'a test flipped to passed',
      (r: Report) => {
        (r.tests[1] as { status: string }).status = 'passed';
      },
      ['tests.T2', 'scores.quality', 'scores.deterministic'],
    ],
    [
      'an edited evidence item',
      (r: Report) => {
        (r.evidence.items[1] as { status: string }).status = 'passed';
      },
      ['evidence.hash', 'tests.T2'],
    ],
    [
      'a removed lint finding',
      (r: Report) => {
        r.evidence.items = r.evidence.items.filter((i) => i.kind !== 'lint');
      },
      ['evidence.hash', 'scores.quality', 'scores.deterministic'],
    ],
    // The report carries the graded text (issue 16): a changed hash no longer matches it either.
    [
      'a changed file hash',
      (r: Report) => {
        (r.submission.files[0] as { sha256: string }).sha256 = '0'.repeat(64);
      },
      ['submission.sha256', 'submission.files.solution.js.text'],
    ],
    [
      'an edited source text',
      (r: Report) => {
        (r.submission.files[0] as { text: string }).text += '// added later\n';
      },
      ['submission.files.solution.js.text'],
    ],
    [
      'a source text with its byte-order mark dropped by intake',
      (r: Report) => {
        const f = r.submission.files[0] as { path: string; text: string; sha256: string };
        f.sha256 = sha256(`\uFEFF${f.text}`);
        r.submission.sha256 = sha256(canonicalJson([[f.path, f.sha256]]));
      },
      [],
    ],
    [
      'a report older than the source field (no text)',
      (r: Report) => {
        delete (r.submission.files[0] as { text?: string }).text;
      },
      [],
    ],
  ])('detects %s and names the field', (_what, edit, fields) => {
    expect(checkReport(edited(edit)).map((d) => d.field)).toEqual(fields);
  });

  it('a re-run against changed input explains what differs', async () => {
    const again = await gradeInline(backend, rubric, {
      'solution.js': 'var f = (x) => x * 2;\nmodule.exports = { f };\n',
    });
    expect(compareRerun(report, again).map((d) => d.field)).toEqual([
      'submission.files',
      'tests',
      'evidence.hash',
      'scores.deterministic',
    ]);
    expect(compareRerun(report, report)).toEqual([]);
  });

  it('the CLI: exit 0 on an untouched report, 6 naming the difference on an edited one, and re-runs the inputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-verify-'));
    const run = (args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, [join(ROOT, 'bin', 'evigrade.js'), 'verify', ...args], (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        );
      });
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'leap.js'), 'export const isLeap = (y) => y % 4 === 0;\n');
    const rub = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
    const graded = await new Promise<number>((resolve) =>
      execFile(
        process.execPath,
        [join(ROOT, 'bin', 'evigrade.js'), 'grade', dir, '--rubric', rub, '--out', join(dir, 'out'), '--no-llm'],
        (e) => resolve(e ? 1 : 0),
      ),
    );
    expect(graded).toBe(0);
    const file = join(dir, 'out', 'sub.json');
    expect((await run([file])).code).toBe(0);
    expect(await run([file, '--rubric', rub, '--submission', join(dir, 'sub')])).toMatchObject({
      code: 0,
      out: expect.stringContaining('re-run matches'),
    });
    writeFileSync(join(dir, 'sub', 'leap.js'), 'export const isLeap = (y) => y % 400 === 0;\n');
    const changed = await run([file, '--rubric', rub, '--submission', join(dir, 'sub')]);
    expect([changed.code, changed.out]).toEqual([6, expect.stringContaining('submission.files: the report says')]);
    const r = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as Report;
    r.scores.final = 9.99;
    writeFileSync(join(dir, 'edited.json'), JSON.stringify(r));
    const bad = await run([join(dir, 'edited.json')]);
    expect([bad.code, bad.out]).toEqual([6, expect.stringContaining('scores.final: the report says 9.99, recomputed')]);
    // Not a report at all: said in one line, exit 2 (usage), no stack trace and no schema field list (issue 16).
    const yaml = await run([rub]);
    expect([yaml.code, yaml.out.trim()]).toEqual([
      2,
      expect.stringContaining(
        `verify: ${rub} is not an Evigrade report: it is not JSON (a rubric.yaml? reports are JSON).`,
      ),
    ]);
    const summary = await run([join(dir, 'out', 'summary.json')]);
    expect([summary.code, summary.out]).toEqual([
      2,
      expect.stringContaining('is not an Evigrade report: it is a batch summary (summary.json)'),
    ]);
    for (const o of [yaml.out, summary.out]) expect(o).not.toMatch(/\n\s+at |invalid, recomputed/);
  });
});

// The exporters' documented formats, as schemas (Gradescope autograder spec; PrairieLearn external grading).
const GradescopeSchema = z
  .object({
    score: z.number(),
    execution_time: z.number().optional(),
    output: z.string().optional(),
    output_format: z.enum(['text', 'html', 'simple_format', 'md', 'ansi']).optional(),
    visibility: z.enum(['hidden', 'after_due_date', 'after_published', 'visible']).optional(),
    stdout_visibility: z.enum(['hidden', 'after_due_date', 'after_published', 'visible']).optional(),
    extra_data: z.record(z.string(), z.unknown()).optional(),
    tests: z.array(
      z
        .object({
          score: z.number(),
          max_score: z.number(),
          status: z.enum(['passed', 'failed']).optional(),
          name: z.string(),
          name_format: z.string().optional(),
          number: z.string().optional(),
          output: z.string(),
          output_format: z.string().optional(),
          tags: z.array(z.string()).optional(),
          visibility: z.enum(['hidden', 'after_due_date', 'after_published', 'visible']),
        })
        .strict(),
    ),
  })
  .strict();
const PrairieLearnSchema = z
  .object({
    gradable: z.boolean(),
    score: z.number().min(0).max(1),
    message: z.string(),
    output: z.string(),
    images: z.array(z.unknown()),
    tests: z.array(
      z
        .object({
          name: z.string(),
          description: z.string(),
          points: z.number(),
          max_points: z.number(),
          message: z.string(),
          output: z.string(),
          images: z.array(z.unknown()),
        })
        .strict(),
    ),
  })
  .strict();

describe('gradebook exports', () => {
  it('Gradescope results.json follows the documented schema, per-test points from the weights; hidden tests by title', () => {
    const g = GradescopeSchema.parse(gradescopeResults(report, 20));
    expect([g.score, g.visibility, g.stdout_visibility, g.tests]).toEqual([
      Math.round(report.scores.final * 2 * 100) / 100,
      'visible',
      'hidden',
      [
        {
          score: 1,
          max_score: 1,
          status: 'passed',
          name: 'hidden test 1',
          name_format: 'text',
          number: '1',
          output: '',
          output_format: 'text',
          tags: [],
          visibility: 'visible',
        },
        {
          score: 0,
          max_score: 1,
          status: 'failed',
          name: 'hidden test 2',
          name_format: 'text',
          number: '2',
          output: 'failed',
          output_format: 'text',
          tags: [],
          visibility: 'visible',
        },
      ],
    ]);
  });
  it("Gradescope's per-test visibility follows the rubric: a visible test in full, an after_due test as after_due_date (issue 33)", () => {
    const g = GradescopeSchema.parse(gradescopeResults(shown, 10));
    expect(g.tests.map((t) => [t.name, t.visibility, t.status, t.output])).toEqual([
      ['one', 'visible', 'passed', ''],
      [
        'two',
        'after_due_date',
        'failed',
        'failed: Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 4\nReceived: 5\n\nHint: Double it.',
      ],
    ]);
  });
  it('PrairieLearn results.json follows the documented schema, score on 0–1', () => {
    const p = PrairieLearnSchema.parse(prairielearnResults(shown));
    expect([p.gradable, p.score, p.tests.map((t) => [t.name, t.points, t.output])]).toEqual([
      true,
      Math.round((shown.scores.final / 10) * 10_000) / 10_000,
      [
        ['one', 1, ''],
        // PrairieLearn shows everything to the student: an after_due test stays hidden there until released.
        ['hidden test 2', 0, 'Hint: Double it.'],
      ],
    ]);
  });
  it("never show students the grader configuration: not the blend reason, the basis, nor a grader failure's message (issue 16)", () => {
    const secret = edited((r) => {
      r.scores.blend.reason = 'LLM weight 0: judge skipped (HF_TOKEN is not set; set it or pass --judge-endpoint)';
      r.scores.basis = `deterministic only: ${r.scores.blend.reason}`;
    });
    const failed = edited((r) => {
      r.status = 'error';
      r.errors = [{ code: 'SANDBOX_FAILED', message: 'bwrap: cannot open /var/lib/evigrade/cgroup/job-7' }];
    });
    for (const r of [secret, failed]) {
      const text = JSON.stringify([gradescopeResults(r), prairielearnResults(r)]);
      for (const leak of ['HF_TOKEN', 'judge-endpoint', '/var/lib', 'bwrap']) expect(text).not.toContain(leak);
    }
    const d = secret.scores.deterministic;
    expect(prairielearnResults(secret).message).toBe(
      `Final ${secret.scores.final}/10 (correctness ${d.correctness}, edge cases not measured, style ${d.style}, complexity ${d.complexity}).`,
    );
    expect(prairielearnResults(failed).message).toBe(
      'Not graded: the grader could not finish (SANDBOX_FAILED); your instructor can see why.',
    );
  });
});
