import { closest } from '../../util/did-you-mean.js';
import { LANGUAGES } from '../../domain/languages.js';
import { isRuffSelector } from '../../domain/ruff.js';
import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { EvigradeError } from '../../domain/errors.js';
import { RubricSchema, type Rubric, type RubricSpec, type TestFile } from '../../domain/rubric.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { isTsFile, transpileForJob } from '../../stages/run/typescript.js';
import { entryFileName } from './intake.js';

// ESLint's rule names, read only for a rubric that names rules. Its rule index (a lazy map: no rule is
// loaded) costs ≈ 15 ms; the public `use-at-your-own-risk` entry loads most of ESLint (≈ 135 ms), so it is
// only the fallback should the index move.
let knownRules: Set<string> | null = null;
function isKnownRule(rule: string): boolean {
  if (!knownRules) {
    const req = createRequire(import.meta.url);
    let rules: Map<string, unknown>;
    try {
      rules = req(join(dirname(req.resolve('eslint/package.json')), 'lib', 'rules', 'index.js')) as Map<
        string,
        unknown
      >;
    } catch {
      rules = (req('eslint/use-at-your-own-risk') as { builtinRules: Map<string, unknown> }).builtinRules;
    }
    knownRules = new Set(rules.keys());
  }
  return knownRules.has(rule);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** `rubric.yaml: limits.timeout_ms: expected number, received string` — one line per problem. */
export function formatZodIssues(file: string, issues: readonly z.core.$ZodIssue[], schema?: z.ZodType): string {
  return issues
    .map(
      (i) =>
        `${file}: ${i.path.length ? i.path.map(String).join('.') : '(top level)'}: ${i.message}${schema ? suggestion(i, schema) : ''}`,
    )
    .join('\n');
}

/** The object keys a schema allows at a path (through defaults and optionals), for "did you mean". */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const unwrap = (s: unknown): { shape?: Record<string, unknown> } | undefined => {
    let cur = s as { shape?: Record<string, unknown>; _zod?: { def?: { innerType?: unknown } } } | undefined;
    while (cur && !cur.shape && cur._zod?.def?.innerType) cur = cur._zod.def.innerType as typeof cur;
    return cur;
  };
  let cur = unwrap(schema);
  for (const seg of path) cur = unwrap(cur?.shape?.[String(seg)]);
  return cur?.shape ? Object.keys(cur.shape) : [];
}

function suggestion(issue: z.core.$ZodIssue, schema: z.ZodType): string {
  if (issue.code !== 'unrecognized_keys') return '';
  const known = keysAt(schema, issue.path);
  const hints = issue.keys
    .map((k) => [k, closest(k, known)] as const)
    .filter(([, c]) => c !== null)
    .map(([k, c]) => `"${k}" → "${c}"`);
  return hints.length ? ` (did you mean ${hints.join(', ')}?)` : '';
}

async function readText(path: string, what: string, rubricPath: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new EvigradeError(
      code === 'ENOENT' ? 'RUBRIC_NOT_FOUND' : 'RUBRIC_INVALID',
      `${rubricPath}: ${what} "${path}" cannot be read (${code ?? 'error'})`,
    );
  }
}

// Ruff's own answer on whether a selector names rules (`E7`, `PLR0913`), asked only for a Python rubric
// that names rules: ruff rejects an unknown selector when a workspace selects it.
let ruffWorkspace: (new (options: object, encoding: number) => unknown) | null = null;
function ruffRuleProblem(rule: string, value: unknown): string | null {
  if (!isRuffSelector(rule)) return 'not a ruff rule selector (a rule code such as E711, or a prefix such as E7 or F)';
  if (Array.isArray(value) && value.length > 1)
    return 'ruff rules take no options here: give a level (off, warn, error)';
  ruffWorkspace ??= (
    createRequire(import.meta.url)('@astral-sh/ruff-wasm-nodejs') as { Workspace: typeof ruffWorkspace & object }
  ).Workspace;
  try {
    new ruffWorkspace({ lint: { select: [rule] } }, 0);
    return null;
  } catch (e) {
    return `not a ruff rule selector: ${
      String(e instanceof Error ? e.message : e)
        .replace(/ in `select` from the CLI$/, '')
        .split('\n')[0]
    }`;
  }
}

/** The rubric hash: the validated spec and each hidden test's name and content hash. */
export const rubricHash = (spec: RubricSpec, tests: readonly Pick<TestFile, 'name' | 'sha256'>[]): string =>
  sha256(canonicalJson({ spec, tests: tests.map((t) => [t.name, t.sha256]) }));

/**
 * Validates a rubric's spec and hidden tests (no I/O), the one place both a
 * rubric file and a rubric received from the job queue go through. `label`
 * names the source in every message.
 */
export function buildRubric(
  raw: unknown,
  label: string,
  sources: readonly { name: string; source: string }[],
  origin: { path: string; referenceDir: string | null },
): Rubric {
  const parsed = RubricSchema.safeParse(raw);
  if (!parsed.success)
    throw new EvigradeError('RUBRIC_INVALID', formatZodIssues(label, parsed.error.issues, RubricSchema));
  const spec = parsed.data;
  const lang = LANGUAGES[spec.language];
  const badRules = Object.entries(spec.lint.rules).map(([r, v]) =>
    lang.runtime === 'node' ? (isKnownRule(r) ? null : `not a ${lang.lintRule.linter} rule`) : ruffRuleProblem(r, v),
  );
  const problems = Object.keys(spec.lint.rules).flatMap((r, i) =>
    badRules[i] ? [`${label}: lint.rules.${r}: ${badRules[i]}`] : [],
  );
  if (problems.length > 0) throw new EvigradeError('RUBRIC_INVALID', problems.join('\n'));
  const tests: TestFile[] = [];
  const seen = new Set<string>([entryFileName(spec.entry, spec.language)]);
  for (const [i, { name, source }] of sources.entries()) {
    if (seen.has(name))
      throw new EvigradeError(
        'RUBRIC_INVALID',
        `${label}: tests.${i}: "${name}" collides with another test file or the entry`,
      );
    seen.add(name);
    const job = isTsFile(name) ? transpileForJob(name, source) : { path: name, code: source };
    tests.push({ name, source, sha256: sha256(source), jobName: job.path, jobSource: job.code });
  }
  return deepFreeze({
    spec,
    path: origin.path,
    sha256: rubricHash(spec, tests),
    tests,
    referenceDir: origin.referenceDir,
  });
}

/** Loads, validates (once, strictly) and freezes a rubric with its hidden tests. */
export async function loadRubric(path: string): Promise<Rubric> {
  const abs = resolve(path);
  const text = await readText(abs, 'rubric file', path);
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new EvigradeError(
      'RUBRIC_INVALID',
      doc.errors.map((e) => `${path}: YAML: ${e.message.split('\n')[0]}`).join('\n'),
    );
  }
  const raw = doc.toJS() as unknown;
  // The spec is validated before any test file is read, so its errors come first.
  const spec = buildRubric(raw, path, [], { path: abs, referenceDir: null }).spec;
  const dir = dirname(abs);
  const sources: { name: string; source: string }[] = [];
  for (const [i, rel] of spec.tests.entries())
    sources.push({ name: basename(rel), source: await readText(resolve(dir, rel), `tests.${i}`, path) });
  let referenceDir: string | null = null;
  if (spec.reference) {
    referenceDir = resolve(dir, spec.reference);
    await stat(referenceDir).catch(() => {
      throw new EvigradeError('RUBRIC_NOT_FOUND', `${path}: reference: "${spec.reference}" does not exist`);
    });
  }
  return buildRubric(raw, path, sources, { path: abs, referenceDir });
}
