/**
 * The one exit-code table. `evigrade --help`, README.md and DESIGN.md show it (`npm run docs` writes the
 * markdown between the `exit-codes` markers; tests/unit/contracts.test.ts fails when it is out of date), and
 * every error code's `exit` in errors.ts must be one of these. No zod here: `--help` loads this file alone.
 */
export const EXIT_CODES = {
  ok: { code: 0, meaning: 'done; rejected submissions are graded outcomes (their reports say why), not failures' },
  someErrored: {
    code: 1,
    meaning: 'some submissions hit grader errors (their reports say why; a re-run retries them)',
  },
  usage: { code: 2, meaning: 'usage, configuration or rubric error; an empty or unreadable submissions folder' },
  referenceFailed: {
    code: 3,
    meaning:
      "the rubric's reference solution fails a hidden test or lacks the entry (`check-rubric`; `grade` then grades no one)",
  },
  unavailable: { code: 4, meaning: 'no sandbox available, or the job queue or history database unreachable' },
  failed: { code: 5, meaning: 'sandbox, analysis or output failure (a full disk), or job data that fails validation' },
  verifyFailed: { code: 6, meaning: '`verify` found differences' },
  internal: { code: 70, meaning: 'internal error' },
  interrupted: { code: 130, meaning: 'interrupted (Ctrl-C); finished reports are kept, a re-run continues' },
} as const satisfies Record<string, { code: number; meaning: string }>;

export type ExitName = keyof typeof EXIT_CODES;
export type ExitCode = (typeof EXIT_CODES)[ExitName]['code'];

/** Name → number, for `return EXIT.ok`. */
export const EXIT = Object.fromEntries(Object.entries(EXIT_CODES).map(([k, v]) => [k, v.code])) as {
  readonly [K in ExitName]: (typeof EXIT_CODES)[K]['code'];
};

/** The table as `--help` prints it. */
export const exitCodesText = (): string =>
  `Exit codes:\n${Object.values(EXIT_CODES)
    .map((e) => `  ${String(e.code).padStart(3)}  ${e.meaning.replaceAll('`', '')}`)
    .join('\n')}\n`;

/** The table as README.md and DESIGN.md show it (between `<!-- exit-codes:start -->` and `<!-- exit-codes:end -->`). */
export const exitCodesMarkdown = (): string =>
  ['| Exit | Meaning |', '|---|---|', ...Object.values(EXIT_CODES).map((e) => `| ${e.code} | ${e.meaning} |`)].join(
    '\n',
  );
