// Evidence is a function of the submission (issue 30): what a run alone decides — object addresses in
// Python reprs (`<Box object at 0x7f2c…>`, `<function f at 0x…>`), process ids, temporary directories,
// measured durations — never reaches a test message, an event or a flag. Each is replaced by a stable token:
// the n-th distinct address of the report becomes `0x…n` (so "the same object twice" still reads as such),
// likewise `pid …n` and `/tmp/…n`. Two runs of one submission then give the same evidence hash, so
// `verify --rubric --submission` and the judge cache see one submission, not two.

interface Rule {
  readonly re: RegExp;
  /** The run-specific part of a match (what is numbered), and how the match is rewritten around its token. */
  readonly rewrite: (match: string, token: (kind: string, value: string) => string, ...groups: string[]) => string;
}

// Pids every sandboxed run has alike: 1 is the job's pid namespace's init (what `/proc/1/environ` names), 0 the
// caller's process group. Only a pid the run drew is numbered.
const STABLE_PIDS = new Set(['0', '1']);
const pidToken = (m: string, pre: string, n: string, token: (kind: string, value: string) => string): string =>
  STABLE_PIDS.has(n) ? m : `${pre}…${token('pid', n)}`;

const RULES: readonly Rule[] = [
  // An address: after " at " (CPython's default repr) any length, elsewhere 9+ hex digits (a 64-bit pointer;
  // a short hex literal a student prints is not one).
  { re: /(?<=\bat )0x[0-9a-fA-F]+\b|\b0x[0-9a-fA-F]{9,16}\b/g, rewrite: (m, token) => `0x…${token('addr', m)}` },
  // pytest's saferepr cuts a long repr in the middle: `<solution.No...7f24ea4a92d0>` keeps an address's tail.
  // The tail of an address seen whole takes its number.
  { re: /(?<=\.\.\.)[0-9a-fA-F]{4,16}(?=>)/g, rewrite: (m, token) => `0x…${token('addr-tail', m)}` },
  { re: /\b(pid[ =:]?)(\d+)\b/gi, rewrite: (m, token, pre = '', n = '') => pidToken(m, pre, n, token) },
  { re: /(\/proc\/)(\d+)(?=\/)/g, rewrite: (m, token, pre = '', n = '') => pidToken(m, pre, n, token) },
  // A temporary directory's own name (mkdtemp's random part): the rest of the path stays readable.
  {
    re: /(\/tmp\/)([^\s/'"`<>:)\]},]+)/g,
    rewrite: (_m, token, pre = '', seg = '') => `${pre}…${token('tmp', seg)}`,
  },
  // A duration the run measured ("took 12 ms", "after 1.52 s", "in 0.31s"); limits ("of 5000 ms") stay.
  {
    re: /\b(took|after|in) \d+(?:\.\d+)? ?(ms|s|seconds|milliseconds)\b/g,
    rewrite: (_m, _token, word = '', unit = '') => `${word} … ${unit}`,
  },
];

/** A function from text to its canonical form; one per report, so tokens are numbered across all of it. */
export function runSpecificCanon(): (text: string) => string {
  const seen = new Map<string, Map<string, number>>();
  const token = (kind: string, value: string): string => {
    if (kind === 'addr-tail') {
      const whole = [...(seen.get('addr')?.keys() ?? [])].find((a) => a.toLowerCase().endsWith(value.toLowerCase()));
      return token('addr', whole ?? `0x${value}`);
    }
    const ofKind = seen.get(kind) ?? new Map<string, number>();
    seen.set(kind, ofKind);
    if (!ofKind.has(value)) ofKind.set(value, ofKind.size + 1);
    return String(ofKind.get(value));
  };
  return (text) =>
    RULES.reduce(
      (t, r) =>
        t.replace(r.re, (m: string, ...rest: unknown[]) =>
          r.rewrite(m, token, ...(rest.filter((x) => typeof x === 'string') as string[])),
        ),
      text,
    );
}
