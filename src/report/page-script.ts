import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The same file from src/report (tests) and dist/report (the CLI): both are two levels below the root.
const BUNDLE = new URL('../../dist/client/report-page.js', import.meta.url);

/** The page's script, bundled from src/report/client by `npm run build` (scripts/build-client.mjs). */
export function loadPageScript(): string {
  try {
    return readFileSync(BUNDLE, 'utf8');
  } catch {
    throw new Error(`the report page's script ${fileURLToPath(BUNDLE)} is missing: run npm run build`);
  }
}
