// The hidden tests' CommonJS rewrite, made once per rubric in the grader (stages/run/test-rewrite.ts) with the harness's
// own rewriter, and handed to every job; and kept on disk between runs (adapters/fs/rewrite-cache.ts): a later
// command hands its jobs the kept rewrite without parsing; an entry that does not validate is made again; Python
// rubrics keep nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { primeTestRewrites } from '../../src/adapters/fs/rewrite-cache.js';
import { jobTest, rewriteOf } from '../../src/stages/run/test-rewrite.js';
import type { Rubric, TestFile } from '../../src/domain/rubric.js';

const file = (jobName: string, jobSource: string): TestFile => ({
  name: jobName,
  source: jobSource,
  sha256: '',
  jobName,
  jobSource,
});

describe('jobTest', () => {
  it('rewrites an ES-module test once per rubric test, keeping every line where it was', () => {
    const src =
      "import { say } from './say';\nimport * as all from '../lib/util';\n\ntest('x', () => {\n  expect(say(1)).toBe('one');\n});\n";
    const t = file('say.spec.js', src);
    const made = jobTest(t, true);
    expect(made.name).toBe('say.spec.js');
    expect(made.source).toBe(src);
    expect(made.cjs?.imports).toEqual(['./say', '../lib/util']);
    expect(made.cjs?.code).toContain('require("./say")');
    expect(made.cjs?.code).not.toMatch(/^\s*import\b/m);
    expect(made.cjs?.code.split('\n').length).toBe(src.split('\n').length);
    expect(made.cjs?.code.split('\n')[4]).toBe("  expect(say(1)).toBe('one');");
    expect(jobTest(t, true)).toBe(made); // made once: the same object for every job of the rubric
  });

  it('hands no rewrite for what a job runs as written or through Node’s loader', () => {
    const cjs = jobTest(file('a.test.js', "const { say } = require('./say');\ntest('x', () => {});\n"), true);
    expect(cjs.cjs).toBeNull();
    const tla = jobTest(file('b.test.js', "import { say } from './say';\nawait 1;\ntest('x', () => {});\n"), true);
    expect(tla.cjs).toBeNull();
    const mjs = jobTest(file('c.test.mjs', "import { say } from './say';\ntest('x', () => {});\n"), true);
    expect(mjs.cjs).toBeNull();
    const broken = jobTest(file('d.test.js', "import { say } from './say';\ntest('x', () => {\n"), true);
    expect(broken.cjs).toBeNull();
    // Commented-out imports do not make a CommonJS file a module.
    const commented = jobTest(
      file('e.test.js', "// import { say } from './say';\nconst s = require('./say');\n"),
      true,
    );
    expect(commented.cjs).toBeNull();
  });

  it('routes every promise chain of a test through the harness, keeping lines, in CommonJS and ES-module files', () => {
    const cjs =
      "const s = require('./s');\ntest('a', () => {\n  return s.fetch()\n    .then((d) => { expect(d).toBe(1); })\n    .catch(/* ( */ (e) => { throw e; });\n});\ntest('b', async () => { await s.x().finally(() => {}); p?.then(f); q['then'](g); });\n";
    const made = jobTest(file('c.test.js', cjs), true).cjs;
    expect(made?.script).toBe(true);
    expect(made?.code.split('\n').length).toBe(cjs.split('\n').length);
    expect(made?.code).toContain('return __evigrade_then(__evigrade_then(s.fetch(), "then", ');
    expect(made?.code).toContain('"catch", ');
    expect(made?.code).toContain('await __evigrade_then(s.x(), "finally", () => {});');
    // Optional and computed calls stay as written.
    expect(made?.code).toContain("p?.then(f); q['then'](g);");
    expect(made?.code.split('\n')[3]).toBe('(d) => { expect(d).toBe(1); }), "catch", ');
    const esm = jobTest(
      file('e.test.js', "import { f } from './s';\ntest('x', () => f().then((v) => expect(v).toBe(2)));\n"),
      true,
    ).cjs;
    expect(esm?.script).toBeUndefined();
    expect(esm?.code).toContain('test(\'x\', () => __evigrade_then(f(), "then", (v) => expect(v).toBe(2)));');
  });

  it("keeps a CommonJS test's use-strict directive, and its mode, when the harness adds its helper line", async () => {
    // The harness's loader (the function that puts the helper on line 1) is CommonJS: load it as a job does.
    const { createRequire } = await import('node:module');
    const src = "'use strict';\nconst s = require('./s');\ntest('a', () => s.f().then((v) => v));\n";
    const made = jobTest(file('u.test.js', src), true).cjs;
    expect(made?.script).toBe(true);
    const code = made?.code ?? '';
    const probe = createRequire(import.meta.url)('../../sandbox/harness/loaders.cjs') as {
      withScriptHead?: (c: string) => string;
    };
    const headed = probe.withScriptHead?.(code) ?? '';
    expect(headed.startsWith("'use strict';const { t: __evigrade_then }")).toBe(true);
    expect(headed.split('\n').length).toBe(src.split('\n').length);
    expect(probe.withScriptHead?.('#!/usr/bin/env node\nx.then(f);')).toBe(
      'const { t: __evigrade_then } = globalThis[Symbol.for("evigrade.esm-helpers")];///usr/bin/env node\nx.then(f);',
    );
  });

  it('gives a Python test as it is', () => {
    const py = jobTest(file('test_x.py', 'from x import f\n\ndef test_f():\n    assert f() == 1\n'), false);
    expect(py).toEqual({ name: 'test_x.py', source: 'from x import f\n\ndef test_f():\n    assert f() == 1\n' });
    expect('cjs' in py).toBe(false);
  });
});

const SPEC = "import { say } from './say';\n\ntest('one', () => {\n  expect(say(1)).toBe('one');\n});\n";
// A fresh TestFile object (file()) is what a new command's rubric load makes: nothing remembered in this process for it.
const rubric = (language: string, ...tests: TestFile[]): Rubric => ({ spec: { language }, tests }) as unknown as Rubric;

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'evigrade-rewrite-'));
  dirs.push(d);
  return join(d, 'rewrite');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const entries = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('primeTestRewrites', () => {
  it('keeps the rewrite the harness would make, and a later run hands out the kept one without making it', () => {
    const dir = tmp();
    const first = file('say.spec.js', SPEC);
    primeTestRewrites(dir, rubric('javascript', first));
    const [entry] = entries(dir);
    expect(entries(dir)).toHaveLength(1);
    const made = rewriteOf(first);
    expect(made?.code).toContain('require("./say")');
    expect(JSON.parse(readFileSync(join(dir, entry as string), 'utf8'))).toEqual({ cjs: made });
    expect(jobTest(first, true).cjs).toEqual(made);

    // The kept entry is what the next run's jobs carry: marked here, so only a read of the file can explain it.
    const marked = { code: `${made?.code}\n// kept`, imports: made?.imports ?? [] };
    writeFileSync(join(dir, entry as string), JSON.stringify({ cjs: marked }));
    const next = file('say.spec.js', SPEC);
    primeTestRewrites(dir, rubric('javascript', next));
    expect(jobTest(next, true).cjs).toEqual(marked);
    expect(jobTest(next, true).source).toBe(SPEC);
  });

  it('makes again and overwrites an entry that does not validate', () => {
    const dir = tmp();
    primeTestRewrites(dir, rubric('javascript', file('say.spec.js', SPEC)));
    const [entry] = entries(dir);
    for (const bad of ['{"cjs":', '{"cjs":{"code":1,"imports":[]}}', '{"cjs":{"code":"x","imports":[],"extra":1}}']) {
      writeFileSync(join(dir, entry as string), bad);
      const t = file('say.spec.js', SPEC);
      primeTestRewrites(dir, rubric('javascript', t));
      expect(jobTest(t, true).cjs).toEqual(rewriteOf(t));
      expect(JSON.parse(readFileSync(join(dir, entry as string), 'utf8'))).toEqual({ cjs: rewriteOf(t) });
    }
  });

  it('keeps one entry per test name and source, a file with no rewrite as null, and nothing for Python', () => {
    const dir = tmp();
    const cjs = file('b.test.js', "const { say } = require('./say');\ntest('x', () => {});\n");
    primeTestRewrites(dir, rubric('javascript', file('say.spec.js', SPEC), file('other.spec.js', SPEC), cjs));
    expect(entries(dir)).toHaveLength(3);
    expect(jobTest(cjs, true).cjs).toBeNull();
    primeTestRewrites(dir, rubric('javascript', file('say.spec.js', `${SPEC}\n`)));
    expect(entries(dir)).toHaveLength(4);
    const py = tmp();
    primeTestRewrites(py, rubric('python', file('test_say.py', 'def test_one():\n    assert True\n')));
    expect(() => readdirSync(py)).toThrow(/ENOENT/);
  });

  it('leaves the jobs their rewrite when the cache cannot be written', () => {
    const dir = tmp();
    writeFileSync(dir, 'a file where the cache directory would be');
    const t = file('say.spec.js', SPEC);
    expect(() => primeTestRewrites(dir, rubric('javascript', t))).not.toThrow();
    expect(jobTest(t, true).cjs).toEqual(rewriteOf(t));
    expect(readFileSync(dir, 'utf8')).toBe('a file where the cache directory would be');
  });
});
