// `evigrade check-rubric`: the hidden tests collect, and the reference solution passes every one.
import { availableParallelism } from 'node:os';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { readSubmission } from '../adapters/fs/intake.js';
import { parseCheckArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { collectExpected, gradeDeterministic } from '../engine.js';
import { isEdgeCase, testName } from '../stages/score/report.js';
import { withSandbox } from './shared.js';

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
    const sub = await readSubmission(
      rubric.referenceDir,
      'reference',
      rubric.spec.limits,
      rubric.spec.entry,
      rubric.spec.language,
    );
    const report = await gradeDeterministic(sub, rubric, expected, ports);
    const bad = report.tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
    if (bad.length > 0 || report.flags.some((f) => f.severity === 'critical')) {
      const lines = bad.map((t) => `  ${t.id} ${t.status}: ${t.name}\n    ${t.message.split('\n')[0] ?? ''}`);
      throw new EvigradeError(
        'REFERENCE_FAILED',
        `${args.rubric}: the reference solution fails ${bad.length} of ${report.tests.length} tests:\n${lines.join('\n')}`,
      );
    }
    process.stdout.write(
      `reference solution passes all ${report.tests.length} tests (score ${report.scores.deterministic.total}/10)\n`,
    );
    if (args.audit) {
      // The wrong programs the tests accept: `evigrade audit` without its files (the score and top survivors).
      const { auditRubric } = await import('../audit/run.js');
      const { auditSummary } = await import('./audit.js');
      const audit = await auditRubric(rubric, sub, {
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
