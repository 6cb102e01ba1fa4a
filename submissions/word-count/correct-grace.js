// Correct (ESM): one regular expression over Unicode letters and digits.
export function countWords(text) {
  const counts = {};
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) || [];
  for (const w of words) {
    counts[w] = Object.prototype.hasOwnProperty.call(counts, w) ? counts[w] + 1 : 1;
  }
  return counts;
}
