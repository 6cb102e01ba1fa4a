// A second grader process for tests (compiled code from dist/): opens its own unshare sandbox and grades
// `jobs` submissions at once. Each job reports the uid it runs as (test "uid"), then waits without CPU
// (test "hold", holding hold.marker open) until the test process kills it from outside. Prints "ready" once collection is over
// (so every job uid seen afterwards is a grading job's), then one JSON line per report.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { openSandbox } = await import(join(ROOT, 'dist/adapters/sandbox/registry.js'));
const { buildRubric } = await import(join(ROOT, 'dist/adapters/fs/rubric-loader.js'));
const { collectExpected, gradeDeterministic } = await import(join(ROOT, 'dist/engine.js'));
const { createAnalysisPool } = await import(join(ROOT, 'dist/adapters/analysis/pool.js'));
const { sha256, canonicalJson } = await import(join(ROOT, 'dist/util/hash.js'));

const jobs = Number(process.argv[2] ?? 2);
const test = `const { probe, hold } = require('./solution');
test('uid', () => { throw new Error('UID:' + probe()); });
test('hold', () => hold());`;
const raw = {
  id: 'uids',
  title: 'Uids',
  language: 'javascript',
  statement: 'uids',
  entry: './solution',
  tests: ['uid.test.js'],
  limits: { timeout_ms: 600_000, test_timeout_ms: 600_000 },
};
const rubric = buildRubric(raw, 'uid rubric', [{ name: 'uid.test.js', source: test }], {
  path: '/inline/rubric.yaml',
  referenceDir: null,
});
const file = (path, content) => ({ path, content, sha256: sha256(content), bytes: Buffer.byteLength(content) });

const sandbox = await openSandbox('unshare', join(ROOT, 'sandbox', 'dist'));
const analysis = createAnalysisPool({ threads: 1 });
const expected = await collectExpected(rubric, sandbox);
process.stdout.write('ready\n');
const ports = { sandbox, analysis, now: () => new Date(0), tools: {}, maxResumes: 0 };
await Promise.all(
  Array.from({ length: jobs }, async (_, i) => {
    // An open hold.marker tells the test process, from outside (/proc/<pid>/fd), that this job has reached "hold".
    const sol = `module.exports = { probe: () => process.getuid(), hold: () => { require('fs').openSync('/job/sub/hold.marker', 'r'); return new Promise(() => {}); } }; // ${i}`;
    const files = [file('solution.js', sol), file('hold.marker', '')];
    const sub = {
      id: `s${i}`,
      files,
      ignored: [],
      sha256: sha256(canonicalJson(files.map((f) => [f.path, f.sha256]))),
    };
    const report = await gradeDeterministic(sub, rubric, expected, ports);
    process.stdout.write(`${JSON.stringify(report.tests.map((t) => [t.name, t.status, t.message]))}\n`);
  }),
);
await analysis.close();
sandbox.close();
