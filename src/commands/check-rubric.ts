// `evigrade check-rubric`: the hidden tests collect, and the reference solution passes every one.
import { availableParallelism } from 'node:os';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { referenceProblem } from '../batch.js';
import type { DeterministicReport } from '../domain/report.js';
import type { GradeJob } from '../queue/port.js';
import { parseCheckArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { collectExpected, gradeDeterministic } from '../engine.js';
import { isEdgeCase, testName } from '../stages/score/report.js';
import { withSandbox } from './shared.js';
import type { Submission } from '../domain/submission.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseCheckArgs(argv);
  const rubric = await loadRubric(args.rubric);
  return withSandbox(args.sandbox, 1, await loadConfig(null), undefined, async (sandbox, ports) => {
    const expected = await collectExpected(rubric, sandbox);
    process.stdout.write(
      `${args.rubric}: valid; ${expected.length} hidden tests in ${rubric.tests.length} file(s); sandbox ${sandbox.backend.id}\n`,
    );
    // Said once here rather than flagged on every submission: the rubric, not a student, leaves it unmeasured.
    const edge = expected.filter((t) => isEdgeCase(rubric, testName(t))).length;
    if (rubric.spec.criteria.edge_cases > 0 && edge === 0) {
      process.stdout.write(
        `note: criteria.edge_cases weighs ${rubric.spec.criteria.edge_cases} but no test matches edge_cases; that weight renormalises over the other criteria in every report\n`,
      );
    }
    if (!rubric.referenceDir) {
      process.stdout.write('warning: no reference solution; add `reference:` so the tests themselves are checked\n');
      return EXIT.ok;
    }
    const graded: DeterministicReport[] = [];
    const refs: Submission[] = [];
    const grade = async (job: GradeJob): Promise<DeterministicReport> => {
      refs.push(job.submission);
      graded.push(await gradeDeterministic(job.submission, rubric, expected, ports));
      return graded[0] as DeterministicReport;
    };
    const problem = await referenceProblem(rubric, expected, { grade }, args.rubric);
    if (problem) throw problem;
    const report = graded[0] as DeterministicReport;
    process.stdout.write(
      `reference solution passes all ${report.tests.length} tests (score ${report.scores.deterministic.total}/10)\n`,
    );
    if (args.audit) {
      // The wrong programs the tests accept: `evigrade audit` without its files (the score and top survivors).
      const { auditRubric } = await import('../audit/run.js');
      const { auditSummary } = await import('./audit.js');
      const audit = await auditRubric(rubric, refs[0] as Submission, {
        sandbox,
        concurrency: availableParallelism(),
        now: ports.now,
        tools: ports.tools,
      });
      process.stdout.write(auditSummary(audit.report));
    }
    return EXIT.ok;
  });
}
