// "Did you mean" for a mistyped key: the known key closest in edit distance, if close enough to be a typo.

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** The closest of `known` to `typed` within a third of its length (at least 2 edits), or null. */
export function closest(typed: string, known: readonly string[]): string | null {
  const limit = Math.max(2, Math.floor(typed.length / 3));
  let best: { key: string; d: number } | null = null;
  for (const key of known) {
    const d = distance(typed.toLowerCase(), key.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { key, d };
  }
  return best?.key ?? null;
}
