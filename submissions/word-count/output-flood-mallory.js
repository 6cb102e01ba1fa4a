// Correct answers, but debug printing gone wrong: every call prints about
// 4 MB to stdout.
const line = `${'debug '.repeat(170)}\n`;

export function countWords(text) {
  for (let i = 0; i < 4000; i++) process.stdout.write(line);
  const counts = {};
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) || []) {
    counts[w] = Object.hasOwn(counts, w) ? counts[w] + 1 : 1;
  }
  return counts;
}
