#!/usr/bin/env node
// Records real Jest's per-test results for every (exercise, solution) in this folder, into
// <exercise>/jest-results.json, for tests/integration/jest-agreement.test.ts to hold Evigrade to.
// Jest is not a dependency of Evigrade: install it in a scratch folder and name it here, e.g.
//   mkdir /tmp/jestrec && cd /tmp/jestrec && npm init -y && npm install jest@30.5.2 babel-jest@30.5.2 @babel/core @babel/preset-env
//   (the Jest whose expect, jest-mock and jest-each the harness bundles: see package.json)
//   node tests/agreement/record.mjs /tmp/jestrec [exercise ...]
// With exercise names, only those are recorded again.
// Each run gets exercism's Babel configuration (ES modules compiled for the running Node), the test file and
// the solution under the name the test imports.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const jestHome = process.argv[2];
if (!jestHome) throw new Error('usage: node tests/agreement/record.mjs <folder where jest, babel-jest and @babel/preset-env are installed>');
const jestBin = join(jestHome, 'node_modules', 'jest', 'bin', 'jest.js');
const version = JSON.parse(readFileSync(join(jestHome, 'node_modules', 'jest', 'package.json'), 'utf8')).version;
const BABEL = "module.exports = { presets: [['@babel/preset-env', { targets: { node: 'current' } }]] };\n";

const only = process.argv.slice(3);
const all = readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
for (const slug of all.filter((s) => only.length === 0 || only.includes(s))) {
  const spec = `${slug}.spec.js`;
  const results = {};
  const suiteFailed = {};
  // The reference first: a solution whose test file fails to run (Jest's "Test suite failed to run") ran no test, and
  // is recorded as every test of the reference's run failed, with Jest's reason beside it.
  const files = readdirSync(join(here, slug, 'solutions')).sort((a, b) => (a === 'reference.js' ? -1 : b === 'reference.js' ? 1 : a.localeCompare(b)));
  for (const file of files) {
    // Inside the Jest install, so babel-jest and the preset resolve from the run's folder.
    const work = mkdtempSync(join(jestHome, 'run-'));
    try {
      writeFileSync(join(work, 'babel.config.js'), BABEL);
      writeFileSync(join(work, 'package.json'), '{"private":true}\n');
      cpSync(join(here, slug, spec), join(work, spec));
      cpSync(join(here, slug, 'solutions', file), join(work, `${slug}.js`));
      mkdirSync(join(work, 'out'));
      const out = join(work, 'out', 'r.json');
      try {
        execFileSync(process.execPath, [jestBin, '--rootDir', work, '--json', '--outputFile', out, '--ci', '--silent'], { cwd: work, stdio: 'ignore' });
      } catch {
        // Failing tests exit 1; the JSON says what happened.
      }
      const r = JSON.parse(readFileSync(out, 'utf8'));
      const tests = {};
      for (const a of r.testResults[0]?.assertionResults ?? []) tests[[...a.ancestorTitles, a.title].join(' > ')] = a.status;
      const variant = file.replace(/\.js$/, '');
      if (Object.keys(tests).length === 0) {
        const reason = r.testResults[0]?.testExecError?.message ?? r.testResults[0]?.message ?? '';
        if (!results.reference || !reason) throw new Error(`${slug}/${file}: Jest ran no test: ${reason}`);
        for (const name of Object.keys(results.reference)) tests[name] = 'failed';
        suiteFailed[variant] = reason.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('●')) ?? reason;
      }
      results[variant] = tests;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  writeFileSync(join(here, slug, 'jest-results.json'), `${JSON.stringify({ jest: version, spec, results: Object.fromEntries(Object.entries(results).sort(([a], [b]) => a.localeCompare(b))), ...(Object.keys(suiteFailed).length ? { suiteFailed } : {}) }, null, 2)}\n`);
  console.log(`${slug}: ${Object.keys(results).length} solutions recorded with Jest ${version}`);
}
