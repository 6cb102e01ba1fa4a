// Host-side type checking sees the submission and the TypeScript/@types declaration files, nothing else:
// every attempt to make the compiler read a host file ends in "not found" and reveals nothing of it.
import fs, { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { typecheck as checkViews } from '../../src/adapters/analysis/typecheck.js';
import type { AnalysisView } from '../../src/stages/analysis/analysis-view.js';
import { ROOT } from '../helpers.js';

const require = createRequire(import.meta.url);
const ALLOWED = [
  dirname(require.resolve('typescript/lib/lib.d.ts')),
  dirname(require.resolve('@types/node/package.json')),
  dirname(createRequire(require.resolve('@types/node/package.json')).resolve('undici-types/package.json')),
];

// Host files a submission would like to read: the grader's own, and secrets planted for this test.
const secrets = mkdtempSync(join(tmpdir(), 'tc-secret-'));
const SECRET_JSON = join(secrets, 'secret.json');
const SECRET_DTS = join(secrets, 'secret.d.ts');
writeFileSync(
  SECRET_JSON,
  JSON.stringify({ hf_token_field: 'hf_planted_value_123', nested: { dbPassword: 'pw_planted' } }),
);
writeFileSync(
  SECRET_DTS,
  'declare const PLANTED_GLOBAL: "planted-literal";\nexport declare const plantedExport: "planted-literal";\n',
);
mkdirSync(join(secrets, 'node_modules', '@types', 'planted'), { recursive: true });
writeFileSync(
  join(secrets, 'node_modules', '@types', 'planted', 'index.d.ts'),
  'declare const PLANTED_TYPES: "planted-literal";\n',
);
afterAll(() => fs.rmSync(secrets, { recursive: true, force: true }));
// What a file's content would show (the word "evigrade" is not among them: a plain `git clone` puts the checkout in a
// folder of that name, and a submission may write that path in its own import).
const LEAK =
  /hf_token_field|hf_planted_value|dbPassword|pw_planted|planted-literal|devDependencies|"scripts"|"name": ?"evigrade"|compilerOptions|root:x:0/;
/** The findings as text, less every quoted name the submission wrote itself: a finding may echo that, and only that. */
const beyondEchoes = (out: unknown, code: string): string =>
  JSON.stringify(out).replace(/'([^'\\]*)'/g, (quoted, inner: string) => (code.includes(inner) ? "''" : quoted));

// The virtual file system is tested on its own: the code as written, directives and all (the analysis view,
// which silences them before any analyser, is tested in tests/integration/analysis-directives.test.ts).
const views = (files: { path: string; code: string }[]) =>
  files.map((f) => ({ path: f.path, view: f.code as AnalysisView }));
const typecheck = (files: { path: string; code: string }[]) => checkViews(views(files));
const one = (code: string, extra: { path: string; code: string }[] = []) =>
  typecheck([{ path: 'sol.ts', code }, ...extra]);
const finding = (rule: string, line: number, column: number, message: string) => ({
  rule,
  severity: 'error',
  line,
  column,
  message,
});
const up = '../'.repeat(12);

describe('typecheck: a virtual file system with the submission and the declaration libraries only', () => {
  it('still knows the libraries: node built-ins, fetch (undici-types), ES2022 and other submission files', () => {
    const code =
      "import { readFileSync } from 'node:fs';\nimport { helper } from './util';\n" +
      "export async function f(): Promise<number> { const r: Response = await fetch('x'); return readFileSync('a').length + (await r.text()).length + [1].at(0)! + Buffer.from('x').length + process.pid + helper(); }\n" +
      "const n: number = 'x';\n";
    expect(one(code, [{ path: 'util.ts', code: 'export const helper = (): number => 1;\n' }])).toEqual([
      {
        file: 'sol.ts',
        lint: [finding('typescript/TS2322', 4, 7, "Type 'string' is not assignable to type 'number'.")],
      },
    ]);
  });

  const cases: [string, string, ReturnType<typeof finding>[]][] = [
    [
      'an absolute import of a host JSON file (resolveJsonModule)',
      `import s from '${SECRET_JSON}';\nexport const x: number = s;\n`,
      [
        finding(
          'typescript/TS2307',
          1,
          15,
          `Cannot find module '${SECRET_JSON}' or its corresponding type declarations.`,
        ),
      ],
    ],
    [
      "a relative import climbing to the grader's package.json",
      `import p from '${up}${relative('/', join(ROOT, 'package.json'))}';\nexport const x: number = p;\n`,
      [
        finding(
          'typescript/TS2307',
          1,
          15,
          `Cannot find module '${up}${relative('/', join(ROOT, 'package.json'))}' or its corresponding type declarations.`,
        ),
      ],
    ],
    [
      '/etc/passwd through a type query',
      "export type T = typeof import('/etc/passwd');\n",
      [finding('typescript/TS2307', 1, 31, "Cannot find module '/etc/passwd' or its corresponding type declarations.")],
    ],
    [
      'a triple-slash path reference to a host declaration file',
      `/// <reference path="${SECRET_DTS}" />\nexport const x: number = PLANTED_GLOBAL;\n`,
      [
        finding('typescript/TS6053', 1, 22, `File '${SECRET_DTS}' not found.`),
        finding('typescript/TS2304', 2, 26, "Cannot find name 'PLANTED_GLOBAL'."),
      ],
    ],
    [
      "a triple-slash types reference to a package in the grader's node_modules",
      '/// <reference types="yargs" />\nexport {};\n',
      [finding('typescript/TS2688', 1, 23, "Cannot find type definition file for 'yargs'.")],
    ],
    [
      'a triple-slash types reference climbing to a planted @types folder',
      `/// <reference types="${up}${relative('/', secrets)}/node_modules/@types/planted" />\nexport const x: number = PLANTED_TYPES;\n`,
      [
        finding(
          'typescript/TS2688',
          1,
          23,
          `Cannot find type definition file for '${up}${relative('/', secrets)}/node_modules/@types/planted'.`,
        ),
        finding('typescript/TS2304', 2, 26, "Cannot find name 'PLANTED_TYPES'."),
      ],
    ],
    [
      'a lib reference with a path in it',
      '/// <reference lib="../../../etc/passwd" />\nexport {};\n',
      [finding('typescript/TS2726', 1, 21, "Cannot find lib definition for '../../../etc/passwd'.")],
    ],
    [
      "import type of a module installed in the grader's node_modules",
      "import type { Linter } from 'eslint';\nimport type ts from 'typescript';\nexport type L = [Linter, typeof ts];\n",
      [
        finding('typescript/TS2307', 1, 29, "Cannot find module 'eslint' or its corresponding type declarations."),
        finding('typescript/TS2307', 2, 21, "Cannot find module 'typescript' or its corresponding type declarations."),
      ],
    ],
    [
      'the host path of a library file that is served under its virtual name',
      `import type * as fsTypes from '${join(ALLOWED[1] as string, 'fs.d.ts')}';\nexport type F = typeof fsTypes;\n`,
      [
        finding(
          'typescript/TS2307',
          1,
          31,
          `Cannot find module '${join(ALLOWED[1] as string, 'fs.d.ts')}' or its corresponding type declarations.`,
        ),
      ],
    ],
    [
      "a library's package.json as a JSON module",
      "import pkg from '/lib/node_modules/@types/node/package.json';\nexport const v: number = pkg;\n",
      [
        finding(
          'typescript/TS2307',
          1,
          17,
          "Cannot find module '/lib/node_modules/@types/node/package.json' or its corresponding type declarations.",
        ),
      ],
    ],
  ];
  for (const [name, code, expected] of cases) {
    it(`refuses ${name}: "not found", nothing of the file in the findings`, () => {
      const out = one(code);
      expect(out).toEqual([{ file: 'sol.ts', lint: expected }]);
      const told = beyondEchoes(out, code);
      expect(told).not.toMatch(LEAK);
      // Nor any host path of the grader's own, wherever the checkout is and whatever its folder is called.
      expect(told).not.toContain(ROOT);
    });
  }

  it('ignores compiler options a submission brings (a tsconfig.json with paths and baseUrl)', () => {
    const tsconfig = JSON.stringify({
      compilerOptions: {
        baseUrl: '/',
        paths: { 'leak/*': [`${secrets}/*`] },
        typeRoots: [`${secrets}/node_modules/@types`],
      },
    });
    const out = typecheck([
      { path: 'tsconfig.json', code: tsconfig },
      { path: 'sol.ts', code: "import s from 'leak/secret.json';\nexport const x: number = s;\n" },
    ]);
    expect(out).toEqual([
      {
        file: 'sol.ts',
        lint: [
          finding(
            'typescript/TS2307',
            1,
            15,
            "Cannot find module 'leak/secret.json' or its corresponding type declarations.",
          ),
        ],
      },
    ]);
  });

  it('never places a submission file outside /submission/ (a path with ../ is dropped, the libraries stay intact)', () => {
    const out = typecheck([
      { path: '../lib/typescript/lib.es5.d.ts', code: 'declare var fake: number;\n' },
      { path: '../etc/evil.ts', code: 'const x: number = "s";\n' },
      { path: 'sol.ts', code: 'export const n: number = [1, 2].map((x) => x * 2).length + fake;\n' },
    ]);
    expect(out).toEqual([{ file: 'sol.ts', lint: [finding('typescript/TS2304', 1, 60, "Cannot find name 'fake'.")] }]);
  });

  it('opens no host file outside the TypeScript and @types libraries, from module load to the last diagnostic', async () => {
    const seen: string[] = [];
    const names = [
      'readFileSync',
      'openSync',
      'statSync',
      'lstatSync',
      'existsSync',
      'readdirSync',
      'realpathSync',
      'accessSync',
      'opendirSync',
      'readlinkSync',
    ] as const;
    const target = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
    const originals = names.map((n) => [n, target[n] as (...a: unknown[]) => unknown] as const);
    for (const [n, orig] of originals) {
      target[n] = (...a: unknown[]) => {
        if (typeof a[0] === 'string') seen.push(a[0]);
        return orig.apply(fs, a);
      };
    }
    try {
      vi.resetModules(); // a fresh module: its library listing and parse cache happen inside the window
      const fresh = (await import('../../src/adapters/analysis/typecheck.js')).typecheck;
      for (const [, code] of cases) fresh(views([{ path: 'sol.ts', code }]));
      fresh(
        views([
          { path: 'sol.ts', code: "import { readFileSync } from 'node:fs';\nexport const r = readFileSync('x');\n" },
        ]),
      );
    } finally {
      for (const [n, orig] of originals) target[n] = orig;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((p) => !ALLOWED.some((root) => p === root || p.startsWith(`${root}/`)))).toEqual([]);
  });
});
