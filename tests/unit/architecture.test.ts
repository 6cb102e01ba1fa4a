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

/** Folders whose every subfolder has a row of its own: one per adapter, one per phase of the stages. */
const GROUPED = new Set(['adapters', 'stages']);

/** The table's name for a source file's folder: `adapters/<x>` or `stages/<x>` (the folder for its loose files), a NESTED folder, else the first segment without `.ts`. */
export function areaOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  if (GROUPED.has(parts[0] as string)) return parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
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

/** The strongly connected groups of more than one node (or a node on itself): each is an import loop. */
export function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = stack.splice(stack.indexOf(v));
    if (group.length > 1 || graph.get(v)?.includes(v)) out.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
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

  it('is one direction: a row may import only the rows above it (so no import points back up a layer)', () => {
    const order = [...rules.keys()];
    const upward = [...rules].flatMap(([area, r]) =>
      r.any
        ? []
        : [...r.values, ...r.types]
            .filter((to) => !(order.indexOf(to) >= 0 && order.indexOf(to) < order.indexOf(area)))
            .map((to) => `${area} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('no file of src/ imports itself around a loop (type-only and dynamic imports included)', () => {
    const graph = new Map(
      files.map(({ file, source }) => [
        file,
        importsOf(file, source)
          .filter((i) => i.spec.startsWith('.'))
          .map((i) => resolve(dirname(file), i.spec).replace(/\.js$/, '.ts')),
      ]),
    );
    expect(loops(graph).map((l) => l.map((f) => relative(ROOT, f)))).toEqual([]);
  });

  it('finds a loop: two files importing each other, a table whose rows import each other around three', () => {
    const ring = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect([
      loops(ring),
      loops(new Map([['x', ['x']]])),
      loops(
        new Map([
          ['y', ['z']],
          ['z', []],
        ]),
      ),
    ]).toEqual([[['a', 'b', 'c']], [['x']], []]);
  });

  it('every exception is named in DESIGN.md', () => {
    for (const [from] of EXCEPTIONS) expect(design).toContain(`\`${from.replace(/^src\//, '')}\``);
  });

  const probe = (area: string, source: string): string[] =>
    violations(rules, [{ file: join(SRC, area, 'probe.ts'), source }]).map((v) => v.replace(/^\S+ /, ''));

  it('catches crossings: a stage importing a sandbox value, a dynamic import, an adapter importing the pipeline, an I/O built-in in a pure folder', () => {
    expect([
      probe(
        'stages/run',
        "import type { RawRun } from '../../domain/sandbox.js';\nimport { openSandbox } from '../../adapters/sandbox/registry.js';",
      ),
      probe('stages/analysis', "export const f = () => import('../../adapters/analysis/pool.js');"),
      probe('adapters/fs', "import { gradeSubmission } from '../../pipeline.js';"),
      probe('domain', "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';"),
      probe(
        'stages/intake',
        "import { join } from 'node:path';\nimport type { Report } from '../../domain/report.js';",
      ),
      probe('report/client', "import { readFileSync } from 'node:fs';\nimport { overview } from '../overview.js';"),
    ]).toEqual([
      ['imports src/adapters/sandbox/registry.ts (stages/run may not import adapters/sandbox)'],
      ['imports src/adapters/analysis/pool.ts (stages/analysis may not import adapters/analysis)'],
      ['imports src/pipeline.ts (adapters/fs may not import pipeline)'],
      ['imports node:fs (domain may use only these Node built-ins: none)'],
      [],
      [
        'imports node:fs (report/client may use only these Node built-ins: none)',
        'imports src/report/overview.ts (report/client may not import report)',
      ],
    ]);
  });

  it('keeps the stage groups in one direction: run, analysis and intake below score, score below judge and lms', () => {
    expect([
      probe('stages/intake', "import { summarise } from '../score/summary.js';"),
      probe(
        'stages/run',
        "import { round2 } from '../../util/round.js';\nimport { assembleReport } from '../score/report.js';",
      ),
      probe(
        'stages/analysis',
        "import { readFileSync } from 'node:fs';\nimport { finalize } from '../judge/judgement.js';",
      ),
      probe(
        'stages/score',
        "import type { Observed } from '../run/test-run.js';\nimport { interpretRun } from '../run/test-run.js';\nimport { codeBytes } from '../analysis/analysis-scores.js';",
      ),
      probe(
        'stages/judge',
        "import { applyQuality } from '../score/quality.js';\nimport { withLms } from '../lms/submissions.js';",
      ),
      probe(
        'stages/lms',
        "import { intakeMap } from '../intake/intake.js';\nimport { finalize } from '../judge/judgement.js';",
      ),
    ]).toEqual([
      ['imports src/stages/score/summary.ts (stages/intake may not import stages/score)'],
      ['imports src/stages/score/report.ts (stages/run may not import stages/score)'],
      [
        'imports node:fs (stages/analysis may use only these Node built-ins: module)',
        'imports src/stages/judge/judgement.ts (stages/analysis may not import stages/judge)',
      ],
      ['imports src/stages/run/test-run.ts (stages/score may not import stages/run)'],
      ['imports src/stages/lms/submissions.ts (stages/judge may not import stages/lms)'],
      ['imports src/stages/judge/judgement.ts (stages/lms may not import stages/judge)'],
    ]);
  });

  it('keeps the speed machinery (runtime) at the bottom, with the file and compile built-ins it needs and no others', () => {
    expect([
      probe(
        'runtime',
        "import { writeFileSync } from 'node:fs';\nimport { Script } from 'node:vm';\nimport { sha256 } from '../util/hash.js';",
      ),
      probe(
        'runtime',
        "import { spawn } from 'node:child_process';\nimport type { Rubric } from '../domain/rubric.js';",
      ),
      probe('stages/run', "import { cacheDir } from '../../runtime/cache.js';"),
    ]).toEqual([
      [],
      [
        'imports node:child_process (runtime may use only these Node built-ins: fs, fs/promises, vm, module, os, path, crypto)',
        'imports src/domain/rubric.ts (runtime may not import domain types)',
      ],
      ['imports src/runtime/cache.ts (stages/run may not import runtime)'],
    ]);
  });

  it('keeps the engine below the queue and the submission path above it', () => {
    expect([
      probe(
        'engine',
        "import type { GradeQueue } from '../queue/port.js';\nimport { measure } from '../pipeline.js';\nimport { interpretRun } from '../stages/run/test-run.js';",
      ),
      probe('engine', "import { judgeReport } from '../judges/port.js';\nimport { readFileSync } from 'node:fs';"),
      probe('queue', "import { collectExpected } from '../engine.js';\nimport { conclude } from '../pipeline.js';"),
      probe(
        'pipeline',
        "import type { GradeQueue } from '../queue/port.js';\nimport { localQueue } from '../queue/local.js';\nimport { failedDeterministic } from '../engine.js';",
      ),
      probe(
        'adapters/sandbox',
        "import type { RawRun } from '../../domain/sandbox.js';\nimport { interpretRun } from '../../stages/run/test-run.js';",
      ),
    ]).toEqual([
      [
        'imports src/queue/port.ts (engine may not import queue types)',
        'imports src/pipeline.ts (engine may not import pipeline)',
      ],
      [
        'imports src/judges/port.ts (engine may not import judges)',
        'imports node:fs (engine may use only these Node built-ins: none)',
      ],
      ['imports src/pipeline.ts (queue may not import pipeline)'],
      ['imports src/queue/local.ts (pipeline may not import queue)'],
      ['imports src/stages/run/test-run.ts (adapters/sandbox may not import stages/run)'],
    ]);
  });
});
