// Partially correct: ASCII-only words, apostrophes dropped, and a counts
// object that inherits from Object.prototype.
export function countWords(text) {
  const counts = {};
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (w) counts[w] = (counts[w] || 0) + 1;
  }
  return counts;
}
