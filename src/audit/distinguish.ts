// Telling a surviving mutant apart from the reference: inputs near the arguments the hidden tests pass (seeds.ts,
// py-probe.ts for Python; fast-check) are tried on both in one sandboxed job, through the same harness, compared
// with Jest's `toEqual` (Python: `==`). The first input where they disagree becomes a test the instructor could add; a survivor that
// agrees on every input of the budget is "possibly equivalent" (never proved: only that budget was searched).
import type { AuditReport } from '../domain/audit.js';
import type { Limits, Rubric, TestFile } from '../domain/rubric.js';
import type { Submission, SubmissionFile } from '../domain/submission.js';
import type { Sandbox } from '../adapters/sandbox/registry.js';
import type { ExpectedTest } from '../domain/queue.js';
import { runHiddenTests } from '../engine.js';
import { keyOf } from '../stages/run/test-run.js';
import { sha256 } from '../util/hash.js';
import { candidates, seedsOf, type Seed } from './seeds.js';
import { PY_PROBE, moduleOfEntry, pyLiteral, pyProbeSource, pySeedsOf, pyTest } from './py-probe.js';
import type { MutantSite } from './sites.js';
import type { Limiter } from '../util/limiter.js';

/** Inputs tried per function of the submission (the seeds the tests use among them). */
export const PROBE_BUDGET = 100;
const REF_DIR = '__evigrade_reference';
const PROBE = 'evigrade-probe.spec.js';
const MARK = 'EVIGRADE_DIFF ';

/** What one survivor's search found: an input that tells it apart, none in the budget, or no answer (timeout…). */
export type Search =
  | { readonly kind: 'found'; readonly found: AuditReport['distinguishing'][number] }
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown'; readonly why: string };

// The probe's own code: each call gets a fresh copy of its arguments; outputs compared with Jest's toEqual (what
// the hidden tests mostly use), a throw compared by its message; a promise is not awaited (skipped).
const PROBE_BODY = `
const show = (v) => { try { const s = JSON.stringify(v, (k, x) => (x === undefined ? '__undefined__' : typeof x === 'bigint' ? String(x) + 'n' : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x)); return s === undefined ? String(v) : s.replace(/"__undefined__"/g, 'undefined'); } catch { return String(v); } };
const run = (f, args) => { try { return { value: f(...JSON.parse(args)) }; } catch (e) { return { threw: String(e && e.message) }; } };
const pick = (ns, name) => (typeof ns[name] === 'function' ? ns[name] : ns.default && typeof ns.default[name] === 'function' ? ns.default[name] : null);
const same = (r, m) => {
  if ('threw' in r || 'threw' in m) return r.threw === m.threw;
  if (r.value && typeof r.value.then === 'function') return true;
  try { expect(m.value).toEqual(r.value); return true; } catch { return false; }
};
const said = (o) => ('threw' in o ? 'throws ' + o.threw : show(o.value)).slice(0, 300);
test('evigrade probe', () => {
  for (let i = 0; i < INPUTS.length; i++) {
    const [name, args] = INPUTS[i];
    const f = pick(reference, name);
    const g = pick(mutant, name);
    if (!f || !g) continue;
    const r = run(f, args);
    const m = run(g, args);
    if (!same(r, m)) throw new Error(${JSON.stringify(MARK)} + JSON.stringify([i, said(r), said(m), 'threw' in r, 'threw' in m]));
  }
});
`;

export function probeSource(entry: string, inputs: readonly Seed[]): string {
  const spec = entry.startsWith('./') ? entry : `./${entry}`;
  const list = inputs.map((s) => [s.fn, JSON.stringify(s.args)]);
  return `import * as mutant from ${JSON.stringify(spec)};\nimport * as reference from ${JSON.stringify(`./${REF_DIR}/${spec.slice(2)}`)};\nconst INPUTS = ${JSON.stringify(list)};\n${PROBE_BODY}`;
}

const file = (path: string, content: string): SubmissionFile => ({
  path,
  content,
  sha256: sha256(content),
  bytes: Buffer.byteLength(content),
});

/**
 * The mutant as the submission, the reference beside it in a folder of its own, the probe as the only test. For
 * Python the folder is a package (`__init__.py`), so the harness's module finder serves it like the submission's own.
 */
function probeJob(rubric: Rubric, ref: Submission, mutated: Submission, inputs: readonly Seed[]) {
  const python = rubric.spec.language === 'python';
  const name = python ? PY_PROBE : PROBE;
  const source = python
    ? pyProbeSource(moduleOfEntry(rubric.spec.entry), REF_DIR, MARK, inputs)
    : probeSource(rubric.spec.entry, inputs);
  const test: TestFile = { name, source, sha256: sha256(source), jobName: name, jobSource: source };
  const files = [
    ...mutated.files,
    ...ref.files.map((f) => file(`${REF_DIR}/${f.path}`, f.content)),
    ...(python && !ref.files.some((f) => f.path === '__init__.py') ? [file(`${REF_DIR}/__init__.py`, '')] : []),
  ];
  const sub: Submission = { ...mutated, files, sha256: sha256(files.map((f) => f.sha256).join('|')) };
  // The path the harness registers: Jest's test name, pytest's node id.
  const path = python ? `${PY_PROBE}::test_evigrade_probe` : 'evigrade probe';
  return { rubric: { ...rubric, tests: [test] }, sub, expected: [{ file: name, index: 0, path: [path] }] };
}

/** Pure: the search's answer from the probe test's outcome (a pytest test to paste when `python`). */
export function searchOf(
  mutantId: string,
  inputs: readonly Seed[],
  outcome: { status: string; message: string } | undefined,
  python = false,
): Search {
  if (!outcome) return { kind: 'unknown', why: 'the probe reported nothing' };
  if (outcome.status === 'passed') return { kind: 'none' };
  const at = outcome.message.indexOf(MARK);
  if (outcome.status !== 'failed' || at < 0)
    return { kind: 'unknown', why: `the probe ${outcome.status}: ${outcome.message.split('\n')[0]?.slice(0, 200)}` };
  const [i, reference, mutantOutput, threw, mutantThrew, type, message] = JSON.parse(
    outcome.message.slice(at + MARK.length).split('\n')[0]!,
  ) as [number, string, string, boolean, boolean, string?, string?];
  const s = inputs[i]!;
  if (python) {
    const input = s.args.map(pyLiteral).join(', ');
    const test = pyTest(`${s.fn}(${input})`, s.fn, reference, threw, type ?? 'Exception', message ?? '');
    return { kind: 'found', found: { mutant: mutantId, function: s.fn, input, reference, mutantOutput, test } };
  }
  const input = s.args.map((a) => JSON.stringify(a)).join(', ');
  const call = `${s.fn}(${input})`;
  // Both threw, with other messages: the test pins the reference's message (a bare toThrow() passes the mutant too).
  const expectation = !threw
    ? `expect(${call}).toEqual(${reference});`
    : mutantThrew
      ? `expect(() => ${call}).toThrow(${JSON.stringify(reference.slice('throws '.length))});`
      : `expect(() => ${call}).toThrow();`;
  const test = `test('${threw ? `${s.fn} rejects ${esc(input)}` : `${s.fn}(${esc(input)})`}', () => {\n  ${expectation}\n});`;
  return { kind: 'found', found: { mutant: mutantId, function: s.fn, input, reference, mutantOutput, test } };
}

const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").slice(0, 80);

export interface Searcher {
  /** The inputs tried (the same for every mutant), or null when the tests give no seeds or the language has no probe. */
  readonly inputs: readonly Seed[] | null;
  search(mutantId: string, mutated: Submission, limits: Limits): Promise<Search>;
}

export async function createSearcher(rubric: Rubric, ref: Submission, sandbox: Sandbox): Promise<Searcher> {
  const python = rubric.spec.language === 'python';
  const sources = rubric.tests.map((t) => t.jobSource);
  const seeds = python ? await pySeedsOf(sources, moduleOfEntry(rubric.spec.entry)) : seedsOf(sources);
  const inputs = seeds.length > 0 ? candidates(seeds, PROBE_BUDGET) : null;
  return {
    inputs,
    async search(mutantId, mutated, limits) {
      if (!inputs) return { kind: 'unknown', why: 'no seeds' };
      const job = probeJob(rubric, ref, mutated, inputs);
      const state = await runHiddenTests(
        job.sub,
        job.rubric,
        job.expected as ExpectedTest[],
        { sandbox, maxResumes: 0 },
        { limits },
      );
      if (state.untrusted) return { kind: 'unknown', why: state.untrusted };
      return searchOf(mutantId, inputs, state.results.get(keyOf(job.expected[0]!)), python);
    },
  };
}

/** What the search over every survivor found, and how it was bounded (said in audit.json's notes). */
export interface Searched {
  readonly results: ReadonlyMap<string, Search>;
  readonly note: string;
}

/** Searches every survivor (one sandboxed job each, with the mutants' budgets and concurrency). */
export async function distinguishSurvivors(
  rubric: Rubric,
  ref: Submission,
  survivors: readonly MutantSite[],
  o: {
    readonly sandbox: Sandbox;
    readonly limiter: Limiter;
    readonly mutated: (m: MutantSite) => Submission;
    readonly limits: Limits;
    readonly onProgress?: (p: { phase: 'distinguish'; done: number; total: number }) => void;
  },
): Promise<Searched> {
  const searcher = await createSearcher(rubric, ref, o.sandbox);
  const inputs = searcher.inputs;
  const python = rubric.spec.language === 'python';
  if (!inputs)
    return {
      results: new Map(),
      note: `distinguishing inputs: not searched (the hidden tests call no function imported from ${python ? `the entry module ${moduleOfEntry(rubric.spec.entry)}` : 'the submission'} with literal arguments)`,
    };
  let done = 0;
  const pairs = await Promise.all(
    survivors.map((m) =>
      o.limiter.run(async () => {
        const r = await searcher.search(m.id, o.mutated(m), o.limits);
        o.onProgress?.({ phase: 'distinguish', done: ++done, total: survivors.length });
        return [m.id, r] as const;
      }),
    ),
  );
  const fns = [...new Set(inputs.map((s) => s.fn))];
  return {
    results: new Map(pairs),
    note: `distinguishing inputs: per surviving mutant one sandboxed job tries ${inputs.length} argument lists (up to ${PROBE_BUDGET} per function of ${fns.join(', ')}: the hidden tests' own literal arguments, then fast-check samples near them, seed 42) on the mutant and the reference, compared with ${python ? "Python's == (an exception by its type and message; tuples of the tests' arguments are passed as lists)" : "Jest's toEqual"}; a survivor that agrees on all of them is "possibly equivalent" for that budget, not proved equivalent`,
  };
}
