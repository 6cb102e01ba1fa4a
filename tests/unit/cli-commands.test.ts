// One declaration per command (src/cli/commands.ts): the parser reads its options from it, typed, and --help prints
// every option with what it means.
import { describe, expect, it } from 'vitest';
import { parseGradeArgs, parseHistoryArgs, parseReportArgs } from '../../src/cli/args.js';
import { COMMAND_DECLS, commandHelp, type CommandName } from '../../src/cli/commands.js';

const usageError = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
  return 'no error';
};

describe('the command declarations', () => {
  it('--help names every option of every command with its description', () => {
    const missing = Object.entries(COMMAND_DECLS).flatMap(([name, d]) => {
      const help = commandHelp(name as CommandName);
      return Object.entries(d.options)
        .filter(([opt, o]) => !help.includes(`--${opt}`) || o.describe.length < 10 || !help.includes(o.describe))
        .map(([opt]) => `${name} --${opt}`);
    });
    expect(missing).toEqual([]);
    expect(commandHelp('grade').split('\n').slice(0, 2)).toEqual([
      'usage:',
      '  evigrade grade <submissions-dir|download.zip> --rubric <rubric.yaml> --out <dir>',
    ]);
    for (const opt of ['--no-llm', '--judge-endpoint URL', '--judge-model NAME', '--config', '--db', '--queue'])
      expect(commandHelp('grade')).toContain(opt);
  });

  it('parse a command as declared: typed values, defaults, and usage errors naming the problem', () => {
    expect(
      parseGradeArgs(
        ['subs', '--rubric', 'r.yaml', '--out', 'o', '--judge-endpoint', 'http://127.0.0.1:1', '--judge-model', 'm'],
        3,
      ),
    ).toEqual({
      submissions: 'subs',
      rubric: 'r.yaml',
      out: 'o',
      concurrency: 3,
      sandbox: process.env.EVIGRADE_SANDBOX ?? 'auto',
      force: false,
      noLlm: false,
      config: null,
      judges: [expect.objectContaining({ endpointUrl: 'http://127.0.0.1:1', model: 'm' })],
      queueUrl: null,
      db: null,
      from: null,
      attempts: 'latest',
      log: null,
      allowFailingReference: false,
    });
    expect(parseHistoryArgs(['--db', 'x', '--diff', '3', '--diff', '7']).diff).toEqual([3, 7]);
    expect([
      usageError(() => parseGradeArgs(['--rubric', 'r', '--out', 'o'], 1)),
      usageError(() => parseGradeArgs(['a.zip', '--rubric', 'r', '--out', 'o', '--attempts', 'first'], 1)),
      usageError(() => parseGradeArgs(['s', '--rubric', 'r', '--out', 'o', '--bogus'], 1)),
      usageError(() => parseReportArgs(['out', '--to', 'sakai'])),
      usageError(() => parseHistoryArgs(['--diff', '3'])),
    ]).toEqual([
      'USAGE: usage: evigrade grade <submissions-dir|download.zip> --rubric <rubric.yaml> --out <dir> (evigrade grade --help)',
      'USAGE: grade: --attempts must be one of latest, all, got "first"',
      "USAGE: Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--bogus\"",
      'USAGE: report: --to must be one of canvas, moodle, blackboard, csv, got "sakai"',
      'USAGE: history: --diff takes two grading ids (--diff 3 --diff 7), got 3',
    ]);
  });
});
