// Bundles the report page's browser code before any test file runs, so `npx vitest run …` never inlines a
// stale or missing dist/client/report-page.js (report/html.ts reads it; `npm run build` writes it too). And gives the
// run a temporary directory of its own (TMPDIR, which every test file's process and its children inherit), removed
// when the run ends: test files make hundreds of temporary directories, and a file that fails or is killed midway
// would otherwise leave its own in /tmp.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingTool, TOOLS, type ToolName } from './fakes/tools.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export default function setup(): () => void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-client.mjs')], { stdio: 'inherit' });
  // Named without "evigrade" (tests look for that word in what must not leak), and open like /tmp itself: the
  // Postgres test server runs as its own user.
  const dir = mkdtempSync(join(tmpdir(), 'vitest-run-'));
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  // Said once, up front: the tests that need these will fail (or skip) and name them again.
  const missing = (Object.keys(TOOLS) as ToolName[]).map(missingTool).filter((m) => m !== null);
  if (missing.length > 0) console.warn(`\nMissing on this machine:\n  ${missing.join('\n  ')}\n`);
  return () => rmSync(dir, { recursive: true, force: true });
}
