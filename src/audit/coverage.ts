// The reference's lines no hidden test executes: one extra run of the reference with the harness measuring line
// coverage (V8's block coverage in the JavaScript harness, line tracing in the Python submission process). A line
// is executable when a statement starts on it; covered when one of those statements ran in some hidden test.
import type { Rubric } from '../domain/rubric.js';
import type { Submission } from '../domain/submission.js';
import type { Sandbox } from '../adapters/sandbox/registry.js';
import type { ExpectedTest } from '../domain/queue.js';
import { runWithCoverage, type FileCoverage } from '../engine.js';
import type { Coverage } from './report.js';

const HOW = {
  python: 'line events traced (sys.settrace) in the submission process over one run of the hidden tests',
  js: "V8's precise block coverage over one run of the hidden tests",
};

/** Pure: the audit's coverage from what the harness reported per file. */
export function coverageOf(files: readonly FileCoverage[], python: boolean, errors: readonly string[] = []): Coverage {
  const exact = files.filter((f) => f.exact);
  const unmapped = files.filter((f) => !f.exact).map((f) => f.file);
  const lines = Object.fromEntries(
    [...exact]
      .sort((a, b) => a.file.localeCompare(b.file))
      .map((f) => [f.file, { executable: [...f.executable], covered: f.hit.filter((l) => f.executable.includes(l)) }]),
  );
  const parts = [
    `${python ? HOW.python : HOW.js}; a line is executable when a statement starts on it`,
    ...(python ? [] : ['a file no test loads is not listed']),
    ...(unmapped.length > 0 ? [`not mapped to source lines: ${unmapped.join(', ')}`] : []),
    ...errors,
  ];
  if (exact.length === 0)
    return {
      measured: false,
      lines: {},
      note: `line coverage not measured: ${parts.slice(1).join('; ') || 'no file reported'}`,
    };
  return { measured: true, lines, note: parts.join('; ') };
}

export async function measureCoverage(
  rubric: Rubric,
  ref: Submission,
  expected: readonly ExpectedTest[],
  sandbox: Sandbox,
): Promise<Coverage> {
  const { files, errors } = await runWithCoverage(ref, rubric, expected, sandbox);
  return coverageOf(files, rubric.spec.language === 'python', errors);
}
