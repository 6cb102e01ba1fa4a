// audit.json's mutants in the field's shared format (mutation-testing-report-schema, the one StrykerJS and other
// mutation tools write), so its viewer (mutation-testing-elements) and mutation-testing-metrics read an audit as is.
import type { MutantResult, MutantStatus, MutationTestResult } from 'mutation-testing-report-schema/api';
import type { AuditMutant, AuditReport } from '../domain/audit.js';

const STATUS: Record<AuditMutant['status'], MutantStatus> = {
  killed: 'Killed',
  survived: 'Survived',
  timeout: 'Timeout',
  error: 'RuntimeError',
  ignored: 'Ignored',
};

function mutantResult(m: AuditMutant): MutantResult {
  const reason = m.status === 'ignored' ? m.ignoredBecause : m.detail;
  return {
    id: m.id,
    mutatorName: m.mutator,
    replacement: m.replacement,
    location: { start: { line: m.line, column: m.column }, end: { line: m.endLine, column: m.endColumn } },
    // A survivor on a line no test runs is what the format calls NoCoverage.
    status: m.status === 'survived' && m.covered === false ? 'NoCoverage' : STATUS[m.status],
    ...(reason ? { statusReason: reason } : {}),
    ...(m.killedBy.length > 0 ? { killedBy: m.killedBy } : {}),
  };
}

export function standardReport(
  audit: AuditReport,
  sources: Readonly<Record<string, string>>,
  tests: readonly { file: string; name: string }[],
): MutationTestResult {
  const language = audit.rubric.language;
  const files: MutationTestResult['files'] = {};
  for (const [path, source] of Object.entries(sources)) {
    const mutants = audit.mutants.filter((m) => m.file === path);
    if (mutants.length > 0) files[path] = { language, source, mutants: mutants.map(mutantResult) };
  }
  const testFiles: NonNullable<MutationTestResult['testFiles']> = {};
  for (const t of tests) (testFiles[t.file] ??= { tests: [] }).tests.push({ id: t.name, name: t.name });
  return {
    schemaVersion: '2',
    thresholds: { high: 80, low: 60 },
    files,
    testFiles,
    framework: { name: 'evigrade', version: audit.tools.evigrade ?? '' },
    config: { rubric: audit.rubric.id, sandbox: audit.sandbox },
  };
}
