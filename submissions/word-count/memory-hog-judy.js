// Correct, except that on an empty text it "caches" megabyte buffers forever:
// it allocates until the sandbox kills it (memory outside the V8 heap, so only
// the cgroup limit can stop it).
const cache = [];

export function countWords(text) {
  if (text === '') {
    for (;;) cache.push(Buffer.alloc(8 * 1024 * 1024, 1));
  }
  const counts = {};
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) || []) {
    counts[w] = Object.hasOwn(counts, w) ? counts[w] + 1 : 1;
  }
  return counts;
}
