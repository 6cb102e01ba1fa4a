// `evigrade verify`: a report against its own evidence, and optionally against a re-run of its inputs.
import { readFile } from 'node:fs/promises';
import { readSubmission } from '../adapters/fs/intake.js';
import { loadConfig } from '../adapters/fs/config-loader.js';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { parseVerifyArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { collectExpected, gradeDeterministic } from '../engine.js';
import { checkReport, compareRerun, parseReport, whyNotAReport } from '../report/verify.js';
import { withSandbox } from './shared.js';

export async function run(argv: string[]): Promise<number> {
  // `verify --history --db …`: the grading history's hash chains instead of one report.
  if (argv.includes('--history'))
    return (await import('./history.js')).run(['--verify', ...argv.filter((a) => a !== '--history')]);
  const args = parseVerifyArgs(argv);
  const text = await readFile(args.report, 'utf8').catch(() => {
    throw new EvigradeError('USAGE', `verify: cannot read ${args.report}`);
  });
  const raw = parseJson(text);
  const notReport = whyNotAReport(raw);
  if (notReport)
    throw new EvigradeError(
      'USAGE',
      `verify: ${args.report} is not an Evigrade report: ${notReport}. Verify one <id>.json that \`evigrade grade --out\` wrote.`,
    );
  const { report, differences } = parseReport(raw);
  const found = report ? checkReport(report) : differences;
  if (report && args.rubric && args.submission) {
    const rubric = await loadRubric(args.rubric);
    const sub = await readSubmission(
      args.submission,
      report.submission.id,
      rubric.spec.limits,
      rubric.spec.entry,
      rubric.spec.language,
      report.submission.name,
    );
    const again = await withSandbox(args.sandbox, 1, await loadConfig(null), undefined, async (sandbox, ports) =>
      gradeDeterministic(sub, rubric, await collectExpected(rubric, sandbox), ports),
    );
    found.push(...compareRerun(report, again));
  }
  if (found.length === 0) {
    process.stdout.write(
      `${args.report}: verified (${report?.evidence.hash}${args.submission ? '; re-run matches' : '; hashes and scores consistent'})\n`,
    );
    return EXIT.ok;
  }
  const lines = found.map((d) => `  ${d.field}: the report says ${d.report}, recomputed ${d.recomputed}`);
  throw new EvigradeError('VERIFY_FAILED', `${args.report} does not verify:\n${lines.join('\n')}`);
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
