// Published artefacts that must not drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '../../src/domain/errors.js';
import { reportJsonSchema, summaryJsonSchema } from '../../src/domain/json-schema.js';
import { ROOT } from '../helpers.js';

describe('contracts', () => {
  it('DESIGN.md lists exactly the error table, with the same HTTP statuses and exit codes', () => {
    const design = readFileSync(join(ROOT, 'DESIGN.md'), 'utf8');
    const section = design.slice(design.indexOf('## Error codes'));
    const rows = [...section.matchAll(/^\| `([A-Z_0-9]+)` \| (\d+) \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    expect(rows).toEqual(Object.entries(ERROR_TABLE).map(([code, d]) => [code, d.http, d.exit]));
  });

  it('schemas/*.schema.json are generated from the zod schemas (run `npm run schemas`)', () => {
    const read = (n: string) => JSON.parse(readFileSync(join(ROOT, 'schemas', n), 'utf8')) as unknown;
    expect(read('report.schema.json')).toEqual(reportJsonSchema());
    expect(read('summary.schema.json')).toEqual(summaryJsonSchema());
  });
});
