// Red team (issue 30): a revoked Proxy thrown, rejected, returned or handed to `done` by the submission. Every
// read of it throws (`instanceof` included), and the test runner's own handling of the failure read it: the job
// ended as a harness crash (exit 70) and its tests were re-run. Now each such test fails as under plain Jest, and
// no crash is recorded, on every isolating backend.
import { describe, expect, it } from 'vitest';
import { eventKinds, flagCodes, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';
import { gradeOverHttp } from './http-grade.js';

const TESTS = {
  'revoked.test.js': `const s = require('./solution');
test('thrown', () => { s.thrown(); });
test('rejected', async () => { await s.rejected(); });
test('returned', () => s.rejected());
test('done', (done) => { s.later(done); });
test('honest', () => { expect(s.ok()).toBe(1); });
`,
};
const SOLUTION = `const revoked = () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; };
exports.thrown = () => { throw revoked(); };
exports.rejected = async () => { throw revoked(); };
exports.later = (done) => setTimeout(() => done(revoked()), 1);
exports.ok = () => 1;
`;

const EXPECTED = [
  { thrown: 'failed', rejected: 'failed', returned: 'failed', done: 'failed', honest: 'passed' },
  [],
  [],
];
const outcome = (r: Awaited<ReturnType<typeof gradeInline>>) => [
  statuses(r),
  flagCodes(r),
  eventKinds(r).filter((e) => e === 'crash' || e === 'resumed'),
];

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))('a revoked Proxy as what a test failed with (%s)', (backend) => {
  it('fails each such test, runs the rest, and records no crash', async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS), { 'solution.js': SOLUTION });
    expect(outcome(r)).toEqual(EXPECTED);
  });
});

describe('a revoked Proxy as what a test failed with, over POST /grade', () => {
  it.skipIf(backends.length === 0)('fails each such test, runs the rest, and records no crash', async () => {
    expect(outcome(await gradeOverHttp(TESTS, { 'solution.js': SOLUTION }))).toEqual(EXPECTED);
  });
});
