// Bundles the in-sandbox harness (with Jest's real `expect`, `jest-mock` and
// `jest-each`) into sandbox/dist, so a sandbox needs two files, not node_modules.
import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.mjs';
import './build-userland.mjs'; // the in-realm ports the harness bundle includes (sandbox/harness/gen/userland.cjs)
import { PATCHES, asymmetricGate } from './asymmetric-gate.mjs';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'sandbox', 'dist');
mkdirSync(out, { recursive: true });
// Jest's equality and its failure messages count only the asymmetric matchers test code made (asymmetric-gate.mjs).
const applied = new Set();
await build({
  entryPoints: [join(root, 'sandbox', 'harness', 'main.cjs')],
  outfile: join(out, 'harness.cjs'),
  ...NODE_BUNDLE,
  // Two of Jest's dependencies replaced by what they amount to in a job (each stub says why).
  alias: {
    'supports-color': join(root, 'sandbox', 'harness', 'stubs', 'supports-color.cjs'),
    'graceful-fs': join(root, 'sandbox', 'harness', 'stubs', 'graceful-fs.cjs'),
  },
  plugins: [asymmetricGate(root, applied)],
});
// A package that moved its code elsewhere would otherwise go unpatched without a word.
for (const p of PATCHES)
  if (!applied.has(p.what)) throw new Error(`the asymmetric gate's patch of ${p.what} was never applied`);
copyFileSync(join(root, 'sandbox', 'harness', 'hooks.mjs'), join(out, 'hooks.mjs'));
for (const f of ['boot.cjs', 'snapshot.cjs']) copyFileSync(join(root, 'sandbox', 'harness', f), join(out, f));
