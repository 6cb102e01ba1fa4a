// Rewrites the generated blocks of README.md and DESIGN.md from the code (run after tsc: `npm run docs`).
// tests/unit/contracts.test.ts fails while a block differs from what this would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { exitCodesMarkdown } = await import(join(root, 'dist', 'domain', 'exit-codes.js'));
const BLOCKS = { 'exit-codes': exitCodesMarkdown() };

for (const doc of ['README.md', 'DESIGN.md']) {
  const path = join(root, doc);
  let text = readFileSync(path, 'utf8');
  for (const [name, body] of Object.entries(BLOCKS)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`${doc}: no ${start} … ${end} block`);
    text = `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`;
  }
  writeFileSync(path, text);
}
