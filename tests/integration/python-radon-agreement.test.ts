// Cyclomatic complexity of Python functions agrees with radon (Debian's `radon` package, installed by
// .ci/run; a test-only tool, never on the grading path) on the agreement corpus (solutions and hidden tests),
// the bank-account samples and standard-library files. Every function radon reports must come out with the
// same name (`Class.method` for methods), line and complexity.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePython, preparePythonParser } from '../../src/adapters/analysis/python-parser.js';
import { measurePython } from '../../src/stages/analysis/python-metrics.js';
import { ROOT } from '../helpers.js';
import { requireTool } from '../fakes/tools.js';

const STDLIB = [
  'textwrap.py',
  'argparse.py',
  'difflib.py',
  'fractions.py',
  'json/decoder.py',
  'json/encoder.py',
  'dataclasses.py',
  'tokenize.py',
  'shlex.py',
  'heapq.py',
  'bisect.py',
  'calendar.py',
  'ipaddress.py',
  'statistics.py',
  'string.py',
  'configparser.py',
].map((f) => `/usr/lib/python3.11/${f}`);

function pyFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.py') && !join(e.parentPath, e.name).includes('syntax_error'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

type Row = [name: string, line: number, complexity: number];

function agreement(files: string[]): { rows: number; differing: string[] } {
  const radon = JSON.parse(
    execFileSync('/usr/bin/python3', [join(ROOT, 'tests', 'fixtures', 'python-radon-reference.py'), ...files], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  ) as Record<string, Row[]>;
  const differing: string[] = [];
  let rows = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const tree = parsePython(code);
    const ours = new Map(measurePython(file, code, tree).functions.map((f) => [`${f.name}@${f.line}`, f.cyclomatic]));
    tree.delete();
    for (const [name, line, cc] of radon[file] ?? []) {
      rows++;
      const mine = ours.get(`${name}@${line}`);
      if (mine !== cc) differing.push(`${file}:${line} ${name}: radon ${cc}, ours ${mine ?? 'missing'}`);
    }
  }
  return { rows, differing };
}

beforeAll(async () => {
  await preparePythonParser();
});

describe('Python cyclomatic complexity agrees with radon', () => {
  beforeAll(() => requireTool('radon'));
  it('on the agreement corpus and the bank-account samples', () => {
    const files = [
      ...pyFiles(join(ROOT, 'tests', 'python-agreement')),
      ...pyFiles(join(ROOT, 'submissions', 'bank-account')),
      ...pyFiles(join(ROOT, 'rubrics', 'bank-account')),
    ];
    const r = agreement(files);
    expect(r.differing).toEqual([]);
    expect(r.rows).toBe(441);
  });

  it('on standard-library modules', () => {
    const r = agreement(STDLIB);
    // The one difference is deliberate: Debian's radon 5.1 predates `match` and counts none of its cases;
    // we count as radon 6 does (one per case, less one when a case is irrefutable): 1 + (4 - 1).
    expect(r.differing).toEqual(['/usr/lib/python3.11/dataclasses.py:1128 _get_slots: radon 1, ours 4']);
    expect(r.rows).toBe(747);
  });
});
