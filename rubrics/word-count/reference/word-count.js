// Reference solution for the word-count rubric (ESM).
// A word is a run of letters or digits, optionally joined by single
// apostrophes ("don't", "o'clock"); everything else separates words.
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

export function countWords(text) {
  const counts = {};
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    counts[word] = Object.hasOwn(counts, word) ? counts[word] + 1 : 1;
  }
  return counts;
}
