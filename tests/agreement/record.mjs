#!/usr/bin/env node
// Records real Jest's per-test results for every (exercise, solution) in this folder, into
// <exercise>/jest-results.json, for tests/integration/jest-agreement.test.ts to hold Evigrade to.
// Jest is not a dependency of Evigrade: install it in a scratch folder and name it here, e.g.
//   mkdir /tmp/jestrec && cd /tmp/jestrec && npm init -y && npm install jest@29 babel-jest@29 @babel/core @babel/preset-env
//   node tests/agreement/record.mjs /tmp/jestrec
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

for (const slug of readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
  const spec = `${slug}.spec.js`;
  const results = {};
  for (const file of readdirSync(join(here, slug, 'solutions')).sort()) {
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
      if (Object.keys(tests).length === 0) throw new Error(`${slug}/${file}: Jest ran no test: ${r.testResults[0]?.message ?? ''}`);
      results[file.replace(/\.js$/, '')] = tests;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  writeFileSync(join(here, slug, 'jest-results.json'), `${JSON.stringify({ jest: version, spec, results }, null, 2)}\n`);
  console.log(`${slug}: ${Object.keys(results).length} solutions recorded with Jest ${version}`);
}
