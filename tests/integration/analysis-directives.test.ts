// No in-band directive reaches any analyser (issue 30): per analyser, a directive that would switch a real
// finding off, through the real pool (threads, views); the finding must stay, at the line and column it has
// in the student's own file. The table is a Record over ANALYSERS: a new analyser does not compile without
// its cases.
import { afterAll, describe, expect, it } from 'vitest';
import { createAnalysisPool, type AnalysisRequest } from '../../src/adapters/analysis/pool.js';
import { ANALYSERS, type Analyser } from '../../src/domain/analysis.js';
import { LintSpecSchema } from '../../src/domain/lint.js';
import { AnalysisLimitsSchema } from '../../src/domain/rubric.js';
import { analysisView } from '../../src/stages/analysis/analysis-view.js';
import { inlineSubmission } from '../helpers.js';

const pool = createAnalysisPool({ threads: 1 });
afterAll(() => pool.close());
const request = (language: string): AnalysisRequest => ({
  lint: LintSpecSchema.parse({}),
  language,
  limits: AnalysisLimitsSchema.parse({ cpu_ms: 30_000 }),
});

interface Case {
  readonly name: string;
  readonly language: 'javascript' | 'typescript' | 'python';
  readonly file: string;
  readonly code: string;
  /** The finding the directive tries to remove: rule, line, column. */
  readonly stays: readonly [string, number, number];
}

const CASES = {
  eslint: [
    {
      name: 'eslint-disable-next-line',
      language: 'javascript',
      file: 'a.js',
      code: '// eslint-disable-next-line no-undef\nfoo();\nmodule.exports = {};\n',
      stays: ['eslint/no-undef', 2, 1],
    },
    {
      name: 'a rule configured off in a block comment',
      language: 'javascript',
      file: 'a.js',
      code: '/* eslint eqeqeq: "off" */\nmodule.exports = (a) => a == 1;\n',
      stays: ['eslint/eqeqeq', 2, 27],
    },
    {
      name: 'eslint-disable in a TypeScript file',
      language: 'typescript',
      file: 'a.ts',
      code: '/* eslint-disable */\nexport const f = (a: number): boolean => a == 1;\n',
      stays: ['eslint/eqeqeq', 2, 44],
    },
  ],
  typescript: [
    {
      name: '@ts-nocheck',
      language: 'typescript',
      file: 'a.ts',
      code: '// @ts-nocheck\nexport const n: number = "one";\n',
      stays: ['typescript/TS2322', 2, 14],
    },
    {
      name: '@ts-ignore',
      language: 'typescript',
      file: 'a.ts',
      code: 'export const n: number = 1;\n// @ts-ignore\nexport const s: string = n;\n',
      stays: ['typescript/TS2322', 3, 14],
    },
    {
      name: '@ts-expect-error in a block comment, after code on its line',
      language: 'typescript',
      file: 'a.ts',
      code: 'export const k = 1; /* @ts-expect-error */\nexport const b: boolean = k;\n',
      stays: ['typescript/TS2322', 2, 14],
    },
  ],
  ruff: [
    {
      name: '# noqa',
      language: 'python',
      file: 'a.py',
      code: 'import os  # noqa\n\n\ndef f():\n    return 1\n',
      stays: ['ruff/F401', 1, 8],
    },
    {
      name: '# ruff: noqa (the whole file)',
      language: 'python',
      file: 'a.py',
      code: '# ruff: noqa\ndef f(x):\n    return x == None\n',
      stays: ['ruff/E711', 3, 17],
    },
    {
      name: '# noqa: <code> after a docstring',
      language: 'python',
      file: 'a.py',
      code: '"""Doc."""\n\n\ndef f():\n    return undefined_name  # noqa: F821\n',
      stays: ['ruff/F821', 5, 12],
    },
  ],
} as const satisfies Record<Analyser, readonly Case[]>;

describe('no in-band directive acts on any analyser', () => {
  it('every analyser has cases', () => {
    expect(Object.keys(CASES).sort()).toEqual([...ANALYSERS].sort());
  });

  const all = Object.entries(CASES).flatMap(([a, cases]) => cases.map((c) => [a, c.name, c] as const));
  it.each(all)('%s: %s — the finding stays where it is', async (_a, _n, c) => {
    const [a] = await pool.analyse(inlineSubmission({ [c.file]: c.code }).files, request(c.language));
    const found = (a?.lint ?? []).map((m) => [m.rule, m.line, m.column]);
    expect(found).toContainEqual([...c.stays]);
  });

  it('the view keeps every line and column, and the code outside comments byte for byte', () => {
    const js = 'const a = "// not a comment"; // @ts-ignore\n/* multi\n line */ const b = /\\/\\*x/; // 🎉 end\n';
    const v = analysisView('a.ts', js);
    expect(v).toBe('const a = "// not a comment"; //___________\n/*______\n______*/ const b = /\\/\\*x/; //_______\n');
    expect(v.length).toBe(js.length);
    const py = "s = '# not a comment'  # noqa: E501\n# type: ignore\n";
    expect(analysisView('a.py', py)).toBe("s = '# not a comment'  #___________\n#_____________\n");
  });
});
