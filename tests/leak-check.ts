// The leak check: does a student-facing artifact hold anything of the hidden tests? It reads what a student
// reads (JSON strings, HTML text and attributes) and folds away formatting before it matches, so a leak
// cannot hide behind escapes, entities, case, whitespace or invisible characters.
import type { Report, TestResult } from '../src/domain/report.js';

/** Runs of the hidden source shorter than this (non-space characters) are not leaks: `expect(x).toBe(` is everywhere. */
export const RUN = 24;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** Between two texts of an artifact: folding removes whitespace, so without it two fields would run together. */
const BOUNDARY = '\u0001';

/** Every string of a JSON value (keys too), joined: what a JSON artifact says, its escapes undone by parsing. */
function jsonStrings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number') out.push(String(v));
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      jsonStrings(x, out);
    }
}

/** The text an artifact shows or carries, before folding. HTML: text and attribute values, entities decoded. */
export function artifactText(name: string, raw: string): string {
  if (name.endsWith('.json')) {
    const out: string[] = [];
    jsonStrings(JSON.parse(raw), out);
    return out.join(BOUNDARY);
  }
  // Inline tags vanish (a name split by <b> is still the name); other tags and attribute values are boundaries.
  if (name.endsWith('.html'))
    return decodeEntities(
      raw
        .replace(/<\/?(?:span|code|strong|b|i|em|a|q|small|time)\b[^>]*>/gi, '')
        .replace(/<[^>]*?(?:"([^"]*)")?[^>]*>/g, `${BOUNDARY}$1${BOUNDARY}`),
    );
  return raw;
}

/**
 * Folded for matching: the page's ⟨U+XXXX⟩ markers and the characters they stand for, and every escape a
 * JSON string could still carry, undone; compatibility forms folded; lower case; quotes and backslashes
 * gone; whitespace gone entirely (a reformatted copy is still a copy).
 */
export const fold = (s: string): string =>
  decodeEntities(s)
    .replace(/\u27E8U\+[0-9A-F]{4,6}\u27E9/g, '')
    .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\[nrt]/g, ' ')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]/g, '')
    .replace(/[`'"\u2018\u2019\u201c\u201d\\]/g, '')
    .replace(/\s+/g, '');

/** The student page's and the exports' own words (a hidden group called "edge cases" is not leaked by a score label). */
const PAGE_WORDS =
  'Correctness | Edge cases | Style | Complexity | Tests | hidden test | Hint | Style findings | Functions | edge_case';

export interface Secrets {
  /** Folded hidden test files (sources the student never saw). */
  readonly sources: readonly { name: string; folded: string }[];
  /** Names, describe titles and node-id parts of hidden tests; their file names. */
  readonly names: readonly string[];
  /** Expected values of hidden tests, as their failure messages state them. */
  readonly expected: readonly string[];
  /** Folded text the student may see anyway: their own code, the statement, visible tests, titles and hints. */
  readonly allowed: string;
  /** The student's own file names (frames into them are the student's). */
  readonly studentFiles: readonly string[];
}

/** `Expected: 42`, `Expected: 10.33 ± 1.0e-05`, `assert 3 == 4` (pytest): the expected side. */
function expectedValues(message: string): string[] {
  const out: string[] = [];
  for (const line of message.split('\n')) {
    const m = /^\s*Expected(?: value| substring| pattern| length)?:\s*(.+)$/.exec(line);
    if (m) out.push((m[1] as string).replace(/\s*±.*$/, ''));
    const a = /^\s*(?:AssertionError: )?assert .+ == (.+)$/.exec(line);
    if (a) out.push((a[1] as string).replace(/\s*±.*$/, ''));
  }
  return out;
}

const parts = (t: TestResult): string[] => [
  t.name,
  ...t.path,
  ...t.name.split(/::| > /),
  ...[...t.name.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1] as string),
];

/**
 * What must not reach a student, from the instructor's report and the rubric's test files. A test is hidden
 * when `isHidden` says so; a file is hidden when one of its tests is, or when it holds no test (a conftest).
 */
export function secretsOf(
  r: Report,
  testFiles: readonly { name: string; source: string }[],
  isHidden: (t: TestResult) => boolean,
  statement: string,
): Secrets {
  const hidden = r.tests.filter(isHidden);
  const shown = r.tests.filter((t) => !isHidden(t));
  const hiddenFiles = testFiles.filter(
    (f) => !shown.some((t) => t.file === f.name) || hidden.some((t) => t.file === f.name),
  );
  const allowed = fold(
    [
      PAGE_WORDS,
      statement,
      ...r.submission.files.map((f) => f.text ?? ''),
      ...shown.flatMap((t) => [...parts(t), t.message]),
      ...r.tests.flatMap((t) => [t.student?.title ?? '', t.student?.hint ?? '']),
    ].join(BOUNDARY),
  );
  return {
    sources: hiddenFiles.map((f) => ({ name: f.name, folded: fold(f.source) })),
    names: [...new Set([...hidden.flatMap(parts), ...hiddenFiles.map((f) => f.name)])],
    expected: [...new Set(hidden.flatMap((t) => expectedValues(t.message)))],
    allowed,
    studentFiles: r.submission.files.map((f) => f.path.split('/').pop() as string),
  };
}

export interface Leak {
  readonly kind: 'source' | 'name' | 'expected' | 'internals';
  readonly what: string;
}

/** Every leak of `secrets` in one artifact's text (already extracted with `artifactText`). */
export function findLeaks(text: string, secrets: Secrets): Leak[] {
  const hay = fold(text);
  const leaks: Leak[] = [];
  for (const src of secrets.sources) {
    for (let i = 0; i + RUN <= src.folded.length; i++) {
      const run = src.folded.slice(i, i + RUN);
      if (!hay.includes(run) || secrets.allowed.includes(run)) continue;
      // Grow the run to its full length, for the message, then skip past it.
      let end = i + RUN;
      while (end < src.folded.length && hay.includes(src.folded.slice(i, end + 1))) end++;
      leaks.push({ kind: 'source', what: `${src.name}: ${src.folded.slice(i, end)}` });
      i = end;
    }
  }
  // The grader's own places: the job folder, the harness, Node's internals.
  for (const p of ['/job/', '/evigrade/', 'node:internal', 'dist-packages', '<frozenimportlib'])
    if (hay.includes(p)) leaks.push({ kind: 'internals', what: p });
  // A frame or position into any file but the student's own (a test file, the harness, pytest).
  for (const m of text.matchAll(/([\w./<>-]+\.(?:py|cjs|mjs|js|ts)):\d+/g)) {
    const file = (m[1] as string).split('/').pop() as string;
    if (!secrets.studentFiles.includes(file)) leaks.push({ kind: 'internals', what: m[0] });
  }
  for (const n of secrets.names) {
    const f = fold(n);
    if (f.length >= 6 && hay.includes(f) && !secrets.allowed.includes(f)) leaks.push({ kind: 'name', what: n });
  }
  for (const e of secrets.expected) {
    const f = fold(e);
    if (secrets.allowed.includes(f)) continue;
    // A long value anywhere; a short one (`true`, `42`) only where it is stated as expected.
    if ((f.length >= 5 && hay.includes(f)) || hay.includes(`expected:${f}`)) leaks.push({ kind: 'expected', what: e });
  }
  return leaks;
}
