// Correct, split over two files: the entry imports a helper beside it.
import { tokenize } from './tokenize.js';

export function countWords(text) {
  const counts = {};
  for (const w of tokenize(text)) counts[w] = Object.hasOwn(counts, w) ? counts[w] + 1 : 1;
  return counts;
}
