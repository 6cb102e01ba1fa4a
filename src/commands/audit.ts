// `evigrade audit <rubric.yaml> --out <dir>`: how strong the hidden tests are (src/audit/), written as audit.json,
// audit.html and the mutants in the shared mutation-testing format (mutation-report.json).
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { readReference } from '../adapters/fs/intake.js';
import { writeFileAtomic } from '../adapters/fs/atomic.js';
import { parseAuditArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { AuditReportSchema, type AuditReport } from '../domain/audit.js';
import type { Rubric } from '../domain/rubric.js';
import type { Submission } from '../domain/submission.js';
import type { SandboxChoice } from '../adapters/sandbox/registry.js';
import { auditRubric, type AuditOutcome, type AuditProgress } from '../audit/run.js';
import { auditHtml } from '../audit/html.js';
import { standardReport } from '../audit/standard.js';
import { tools, withSandbox } from './shared.js';

/** Audits a loaded rubric's reference in a fresh sandbox (the CLI's and check-rubric --audit's path). */
export async function auditWithSandbox(
  rubric: Rubric,
  choice: SandboxChoice,
  concurrency: number,
  onProgress?: (p: AuditProgress) => void,
): Promise<AuditOutcome> {
  if (!rubric.referenceDir)
    throw new EvigradeError('RUBRIC_INVALID', `${rubric.path}: an audit needs the rubric's \`reference:\` solution`);
  const ref = (await readReference(rubric, rubric.path)) as Submission;
  return withSandbox(choice, concurrency, await loadConfig(null), undefined, (sandbox) =>
    auditRubric(rubric, ref, {
      sandbox,
      concurrency,
      now: () => new Date(),
      tools: { ...tools(), ...auditTools() },
      ...(onProgress ? { onProgress } : {}),
    }),
  );
}

const auditTools = (): Record<string, string> => ({
  mutator: '@stryker-mutator/instrumenter 9.6.1, tree-sitter-python 0.25.0',
});

/** audit.json (checked against its schema), audit.html and mutation-report.json in `out`. */
export async function writeAudit(out: string, outcome: AuditOutcome): Promise<void> {
  const report: AuditReport = AuditReportSchema.parse(outcome.report);
  await mkdir(out, { recursive: true });
  await writeFileAtomic(join(out, 'audit.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(join(out, 'audit.html'), auditHtml(report, outcome.sources));
  await writeFileAtomic(
    join(out, 'mutation-report.json'),
    `${JSON.stringify(standardReport(report, outcome.sources, outcome.tests), null, 2)}\n`,
  );
}

/** The score and the survivors a reader should look at first (one line each). */
export function auditSummary(report: AuditReport, top = 10): string {
  const c = report.counts;
  const score = report.score === null ? 'n/a' : `${(report.score * 100).toFixed(1)}%`;
  const alive = report.mutants.filter((m) => m.status === 'survived');
  const lines = [
    `audit: mutation score ${score} (${c.killed} killed, ${c.survived} survived, ${c.timeout} timeout, ${c.error} error, ${c.ignored} ignored of ${c.total})`,
    ...alive
      .slice(0, top)
      .map(
        (m) =>
          `  survived ${m.id} ${m.file}:${m.line} ${m.operator}: ${oneLine(m.original)} → ${oneLine(m.replacement)}`,
      ),
  ];
  if (alive.length > top) lines.push(`  … ${alive.length - top} more in audit.json`);
  for (const f of report.flaky) lines.push(`  flaky: ${f.test} (${f.outcomes.join(', ')})`);
  if (report.coverage.measured) {
    lines.push(`  uncovered reference lines: ${report.uncovered.length} of ${report.coverage.linesTotal}`);
    for (const f of report.coverage.files) {
      const parts = [
        ...(f.uncovered.length > 0 ? [`never run: ${f.uncovered.join(', ')}`] : []),
        ...(f.survivedCovered.length > 0 ? [`run, a wrong version passes: ${f.survivedCovered.join(', ')}`] : []),
      ];
      if (parts.length > 0) lines.push(`    ${f.file}: ${parts.join('; ')}`);
    }
  } else lines.push(`  ${report.coverage.note}`);
  return `${lines.join('\n')}\n`;
}

const oneLine = (s: string): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
};

export async function run(argv: string[]): Promise<number> {
  const args = parseAuditArgs(argv, availableParallelism());
  const rubric = await loadRubric(args.rubric);
  const progress = (p: AuditProgress): void => {
    if (p.phase === 'mutants' && p.done % 10 !== 0 && p.done !== p.total) return;
    process.stderr.write(`audit: ${p.phase} ${p.done}/${p.total}\n`);
  };
  const outcome = await auditWithSandbox(rubric, args.sandbox, args.concurrency, progress);
  await writeAudit(args.out, outcome);
  process.stdout.write(auditSummary(outcome.report));
  process.stdout.write(`wrote ${join(args.out, 'audit.json')}, audit.html, mutation-report.json\n`);
  return EXIT.ok;
}
