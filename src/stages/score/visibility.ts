import type { Rubric, RubricSpec } from '../../domain/rubric.js';
import { selectorMatches } from '../../domain/rubric.js';
import type { TestPolicy, VisibilityRule } from '../../domain/visibility.js';

/**
 * How specifically a rubric selector names a test: 0 when it does not, 1 for its file (as the rubric lists it,
 * or its base name), 2 + length for a group (a describe path, a pytest file or class), and above any group for
 * the test itself. The most specific selector decides, so "this file is visible, except this test" reads as
 * written, whatever order the YAML keys come in.
 */
export function specificity(selector: string, name: string, file: string, rubricFiles: readonly string[]): number {
  if (selector === name) return Number.MAX_SAFE_INTEGER;
  if (selectorMatches(selector, name)) return 2 + selector.length;
  const isFile = selector === file || rubricFiles.some((p) => p === selector && p.split('/').pop() === file);
  return isFile ? 1 : 0;
}

function mostSpecific<T>(
  map: Readonly<Record<string, T>>,
  name: string,
  file: string,
  rubricFiles: readonly string[],
): T | undefined {
  let best: { rank: number; value: T } | undefined;
  for (const [sel, value] of Object.entries(map)) {
    const rank = specificity(sel, name, file, rubricFiles);
    if (rank > 0 && (!best || rank > best.rank)) best = { rank, value };
  }
  return best?.value;
}

/** What students see of one test, from the rubric's `visibility` and `hint` (a test no selector names is hidden). */
export function testPolicy(spec: RubricSpec, name: string, file: string): TestPolicy {
  const rule: VisibilityRule = mostSpecific(spec.visibility, name, file, spec.tests) ?? 'hidden';
  const hint = mostSpecific(spec.hint, name, file, spec.tests);
  const level = typeof rule === 'string' ? { visibility: rule } : { visibility: rule.show, title: rule.title };
  return {
    visibility: level.visibility,
    ...(level.title !== undefined && { title: level.title }),
    ...(hint !== undefined && { hint }),
  };
}

/** Selectors of `visibility` and `hint` that name no collected test nor test file, each with where it is. */
export function unknownStudentSelectors(rubric: Rubric, tests: readonly { name: string; file: string }[]): string[] {
  const spec = rubric.spec;
  const problems: string[] = [];
  for (const key of ['visibility', 'hint'] as const)
    for (const sel of Object.keys(spec[key]))
      if (!tests.some((t) => specificity(sel, t.name, t.file, spec.tests) > 0))
        problems.push(`"${sel}" (in ${key}) matches no test, group or test file`);
  return problems;
}
