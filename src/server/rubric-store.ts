import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRubric } from '../adapters/fs/rubric-loader.js';
import { EvigradeError } from '../domain/errors.js';
import type { Rubric } from '../domain/rubric.js';
import type { ExpectedTest } from '../domain/queue.js';

export interface LoadedRubric {
  readonly rubric: Rubric;
  readonly expected: readonly ExpectedTest[];
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
    byId.set(rubric.spec.id, { rubric, expected: await collect(rubric) });
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
