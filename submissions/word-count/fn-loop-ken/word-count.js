// A hand-written scanner with a bug: after an apostrophe the index never
// advances, so any text containing "'" loops forever. Other texts are fine.
const isWordChar = (c) => /[\p{L}\p{N}]/u.test(c);

export function countWords(text) {
  const counts = {};
  const s = text.toLowerCase();
  let i = 0;
  while (i < s.length) {
    if (!isWordChar(s[i])) {
      if (s[i] === "'") continue; // BUG: forgets i++
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && isWordChar(s[j])) j++;
    const w = s.slice(i, j);
    counts[w] = Object.hasOwn(counts, w) ? counts[w] + 1 : 1;
    i = j;
  }
  return counts;
}
