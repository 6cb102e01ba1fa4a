import { selectorMatches } from './rubric.js';

/**
 * How specifically a rubric selector names a test: 0 when it does not, 1 for its file (as the rubric lists it,
 * or its base name), 2 + length for a group (a describe path, a pytest file or class), and above any group for
 * the test itself. The most specific selector decides, so "this file is visible, except this test" reads as
 * written, whatever order the YAML keys come in. Used by every per-test rubric map (`visibility`, `hint`,
 * `test_limits`).
 */
export function specificity(selector: string, name: string, file: string, rubricFiles: readonly string[]): number {
  if (selector === name) return Number.MAX_SAFE_INTEGER;
  if (selectorMatches(selector, name)) return 2 + selector.length;
  const isFile = selector === file || rubricFiles.some((p) => p === selector && p.split('/').pop() === file);
  return isFile ? 1 : 0;
}

/** The value of the most specific selector of `map` naming the test, if any. */
export function mostSpecific<T>(
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
