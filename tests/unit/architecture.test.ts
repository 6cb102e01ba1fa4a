// The module table in DESIGN.md is the rule: every import in src/ (static, type-only
// or dynamic) must be allowed by its folder's row, every folder must have a row, and
// pure folders may use only the Node built-ins their row lists.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const SRC = join(ROOT, 'src');

interface Rule {
  any: boolean;
  values: Set<string>;
  types: Set<string>;
  node: Set<string> | '*';
}

/** Files allowed to cross the table, each named in DESIGN.md's "Known exception". */
const EXCEPTIONS: [from: string, to: string][] = [];

const ticks = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

export function parseModuleTable(design: string): Map<string, Rule> {
  const start = design.indexOf('<!-- module-table:start -->');
  const end = design.indexOf('<!-- module-table:end -->');
  if (start < 0 || end < start) throw new Error('DESIGN.md has no module table between its markers');
  const rules = new Map<string, Rule>();
  for (const line of design.slice(start, end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || !cells[1]?.startsWith('`')) continue;
    const [folder] = ticks(cells[1]);
    const [may = '', node = ''] = [cells[3], cells[4]];
    const rule: Rule = {
      any: may === 'everything',
      values: new Set(),
      types: new Set(),
      node: node === '*' ? '*' : new Set(ticks(node)),
    };
    for (const part of may.split(';')) {
      const into = part.includes('types from') ? rule.types : rule.values;
      for (const t of ticks(part)) into.add(t);
    }
    rules.set(folder as string, rule);
  }
  return rules;
}

/** Folders with a row of their own inside a folder that has one (the browser code may not use what the rest of report/ may). */
const NESTED = new Set(['report/client']);

/** The table's name for a source file's folder: `adapters/<x>`, `adapters` for its loose files, a NESTED folder, else the first segment without `.ts`. */
export function areaOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  if (parts[0] === 'adapters') return parts.length > 2 ? `adapters/${parts[1]}` : 'adapters';
  if (parts.length > 2 && NESTED.has(`${parts[0]}/${parts[1]}`)) return `${parts[0]}/${parts[1]}`;
  return (parts[0] as string).replace(/\.ts$/, '');
}

interface Import {
  spec: string;
  typeOnly: boolean;
  line: number;
}

function importsOf(file: string, source: string): Import[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: Import[] = [];
  const add = (lit: ts.Node, typeOnly: boolean): void => {
    if (ts.isStringLiteral(lit))
      out.push({ spec: lit.text, typeOnly, line: sf.getLineAndCharacterOfPosition(lit.getStart()).line + 1 });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) {
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      add(
        n.moduleSpecifier,
        !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly))),
      );
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier) {
      add(n.moduleSpecifier, n.isTypeOnly);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0]) {
      add(n.arguments[0], false);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      add(n.argument.literal, true);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const walk = (d: string): string[] =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : [],
  );

/** Every import that crosses the table, as "file:line → target (why)". */
export function violations(rules: Map<string, Rule>, files: { file: string; source: string }[]): string[] {
  const out: string[] = [];
  for (const { file, source } of files) {
    const from = areaOf(file);
    const rule = rules.get(from);
    const rel = relative(ROOT, file);
    if (!rule) {
      out.push(`${rel}: folder "${from}" has no row in DESIGN.md's module table`);
      continue;
    }
    for (const imp of importsOf(file, source)) {
      if (imp.spec.startsWith('.')) {
        const target = resolve(dirname(file), imp.spec).replace(/\.js$/, '.ts');
        const to = areaOf(target);
        if (to === from || rule.any || rule.values.has(to) || (imp.typeOnly && rule.types.has(to))) continue;
        if (EXCEPTIONS.some(([f, t]) => f === rel && t === relative(ROOT, target))) continue;
        out.push(
          `${rel}:${imp.line} imports ${relative(ROOT, target)} (${from} may not import ${to}${imp.typeOnly ? ' types' : ''})`,
        );
      } else if (imp.spec.startsWith('node:') && rule.node !== '*' && !rule.node.has(imp.spec.slice(5))) {
        out.push(
          `${rel}:${imp.line} imports ${imp.spec} (${from} may use only these Node built-ins: ${[...rule.node].join(', ') || 'none'})`,
        );
      }
    }
  }
  return out;
}

describe('the module table (DESIGN.md) holds for src/', () => {
  const design = readFileSync(join(ROOT, 'DESIGN.md'), 'utf8');
  const rules = parseModuleTable(design);
  const files = walk(SRC).map((file) => ({ file, source: readFileSync(file, 'utf8') }));

  it('names every folder of src/ and nothing that does not exist', () => {
    const areas = new Set(files.map((f) => areaOf(f.file)));
    expect([...rules.keys()].sort()).toEqual([...areas].sort());
  });

  it('no import crosses it', () => {
    expect(violations(rules, files)).toEqual([]);
  });

  it('every exception is named in DESIGN.md', () => {
    for (const [from] of EXCEPTIONS) expect(design).toContain(`\`${from.replace(/^src\//, '')}\``);
  });

  it('catches crossings: a stage importing a sandbox value, a dynamic import, an adapter importing the pipeline, an I/O built-in in a pure folder', () => {
    const probe = (area: string, source: string): string[] =>
      violations(rules, [{ file: join(SRC, area, 'probe.ts'), source }]).map((v) => v.replace(/^\S+ /, ''));
    expect([
      probe(
        'stages',
        "import type { RawRun } from '../adapters/sandbox/types.js';\nimport { openSandbox } from '../adapters/sandbox/registry.js';",
      ),
      probe('stages', "export const f = () => import('../adapters/analysis/pool.js');"),
      probe('adapters/fs', "import { gradeSubmission } from '../../pipeline.js';"),
      probe('domain', "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';"),
      probe('stages', "import { join } from 'node:path';\nimport type { Report } from '../domain/report.js';"),
      probe('report/client', "import { readFileSync } from 'node:fs';\nimport { overview } from '../overview.js';"),
    ]).toEqual([
      ['imports src/adapters/sandbox/registry.ts (stages may not import adapters/sandbox)'],
      ['imports src/adapters/analysis/pool.ts (stages may not import adapters/analysis)'],
      ['imports src/pipeline.ts (adapters/fs may not import pipeline)'],
      ['imports node:fs (domain may use only these Node built-ins: none)'],
      [],
      [
        'imports node:fs (report/client may use only these Node built-ins: none)',
        'imports src/report/overview.ts (report/client may not import report)',
      ],
    ]);
  });
});
