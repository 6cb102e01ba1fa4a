// Bundles the report page's browser code (src/report/client/*.ts, typed against the DOM by
// tsconfig.client.json) into one IIFE, dist/client/report-page.js, that report/html.ts inlines.
// ASCII only: every non-ASCII character (the hidden-character list included) is written as an escape.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(root, 'src', 'report', 'client', 'main.ts')],
  outfile: join(root, 'dist', 'client', 'report-page.js'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  charset: 'ascii',
  legalComments: 'none',
  // The page's only script: strict as a whole, as the hand-written one was.
  banner: { js: "'use strict';" },
  logLevel: 'warning',
});
