// Writes schemas/*.schema.json from the zod schemas in dist/ (run after tsc).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { reportJsonSchema, summaryJsonSchema, auditJsonSchema } = await import(
  join(root, 'dist', 'domain', 'json-schema.js')
);
mkdirSync(join(root, 'schemas'), { recursive: true });
writeFileSync(join(root, 'schemas', 'report.schema.json'), `${JSON.stringify(reportJsonSchema(), null, 2)}\n`);
writeFileSync(join(root, 'schemas', 'summary.schema.json'), `${JSON.stringify(summaryJsonSchema(), null, 2)}\n`);
writeFileSync(join(root, 'schemas', 'audit.schema.json'), `${JSON.stringify(auditJsonSchema(), null, 2)}\n`);
