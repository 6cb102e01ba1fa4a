import type { Rubric, RubricSpec } from '../../domain/rubric.js';
import { mostSpecific, specificity } from '../../domain/selectors.js';
import type { TestPolicy, VisibilityRule } from '../../domain/visibility.js';

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
