import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { EvigradeError } from '../domain/errors.js';
import type { Rubric } from '../domain/rubric.js';
import type { ExpectedTest } from '../domain/queue.js';

export interface LoadedRubric {
  readonly rubric: Rubric;
  readonly expected: readonly ExpectedTest[];
  /** Why the rubric's reference fails its own tests (check-rubric's message), or null: a batch is then refused (REFERENCE_FAILED). */
  readonly referenceProblem?: string | null;
}

export interface RubricStore {
  get(id: string): LoadedRubric;
  list(): LoadedRubric[];
}

/** What GET /rubrics may show: never the hidden tests, their names, or the reference. */
export function publicRubric(r: Rubric, expected: readonly ExpectedTest[]): Record<string, unknown> {
  const s = r.spec;
  return {
    id: s.id,
    title: s.title,
    language: s.language,
    statement: s.statement,
    entry: s.entry,
    criteria: s.criteria,
    blend: s.blend,
    complexity: s.complexity ?? null,
    limits: {
      timeout_ms: s.limits.timeout_ms,
      memory_mb: s.limits.memory_mb,
      max_files: s.limits.max_files,
      max_bytes: s.limits.max_bytes,
    },
    testCount: expected.length,
    sha256: r.sha256,
  };
}

/** Every `<dir>/<name>/rubric.yaml` and `<dir>/*.yaml`, validated and collected once at start (by the grading queue). */
export async function loadRubricStore(
  dir: string,
  collect: (r: Rubric) => Promise<ExpectedTest[]>,
  checkReference: (r: Rubric, expected: readonly ExpectedTest[]) => Promise<{ message: string } | null> = async () =>
    null,
): Promise<RubricStore> {
  const files: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => {
    throw new EvigradeError('USAGE', `--rubrics ${dir}: cannot read the folder`);
  })) {
    if (e.isDirectory()) {
      const f = join(dir, e.name, 'rubric.yaml');
      if (
        await stat(f).then(
          () => true,
          () => false,
        )
      )
        files.push(f);
    } else if (e.isFile() && /\.ya?ml$/.test(e.name)) files.push(join(dir, e.name));
  }
  const byId = new Map<string, LoadedRubric>();
  for (const f of files.sort()) {
    const rubric = await loadRubric(f);
    if (byId.has(rubric.spec.id))
      throw new EvigradeError('RUBRIC_INVALID', `${f}: id "${rubric.spec.id}" is used by another rubric`);
    const expected = await collect(rubric);
    // Graded once at start, like the collection: a broken rubric is refused per batch, the others still serve.
    const referenceProblem = (await checkReference(rubric, expected))?.message ?? null;
    byId.set(rubric.spec.id, { rubric, expected, referenceProblem });
  }
  if (byId.size === 0)
    throw new EvigradeError(
      'USAGE',
      `--rubrics ${dir}: no rubric found (expected <dir>/<name>/rubric.yaml or <dir>/*.yaml)`,
    );
  return {
    get(id) {
      const r = byId.get(id);
      if (!r)
        throw new EvigradeError('RUBRIC_NOT_FOUND', `no rubric "${id}" (known: ${[...byId.keys()].join(', ')})`, {
          field: 'rubric',
        });
      return r;
    },
    list: () => [...byId.values()],
  };
}

/** REFERENCE_FAILED (422) when the rubric's reference fails its own tests and the caller did not allow it. */
export function refuseFailingReference(loaded: LoadedRubric, allow: boolean): void {
  if (loaded.referenceProblem && !allow)
    throw new EvigradeError(
      'REFERENCE_FAILED',
      `${loaded.referenceProblem}\nNot grading a batch against it: fix the rubric (evigrade check-rubric), or add ?allow_failing_reference=true.`,
    );
}
