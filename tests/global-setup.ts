// Bundles the report page's browser code before any test file runs, so `npx vitest run …` never inlines a
// stale or missing dist/client/report-page.js (report/html.ts reads it; `npm run build` writes it too).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export default function setup(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-client.mjs')], { stdio: 'inherit' });
}
