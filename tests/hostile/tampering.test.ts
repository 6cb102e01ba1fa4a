// Forged results never turn a failure into a pass, and each trick raises a flag.
import type { Report } from '../../src/domain/report.js';
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { eventKinds, flagCodes, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';

// Every hostile case runs against every backend that can isolate here.
const backends = (await isolatingBackends()).filter((b) => b.ok);
if (backends.length === 0) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');

// The correct answer is 42; every hostile solution below returns 41 and tries to look right.
const JEST_TESTS = {
  'answer.test.js': `const { answer } = require('./solution');
describe('answer', () => {
  test('is 42', () => { expect(answer()).toBe(42); });
  test('deep', () => { expect({ v: answer() }).toEqual({ v: 42 }); });
});`,
};
const NODE_TESTS = {
  'answer.test.mjs': `import { test } from 'node:test';
import assert from 'node:assert';
import { answer } from './solution.js';
test('is 42', () => { assert.strictEqual(answer(), 42); });`,
};
const wrong = (prelude: string): Record<string, string> => ({
  'solution.js': `${prelude}\nmodule.exports = { answer: () => 41 };\n`,
});
const BOTH_FAIL = { 'answer > is 42': 'failed', 'answer > deep': 'failed' };

/** What a submission that did not load says about why: its one student error (issue 31), not every test's message. */
const loadError = (r: Report): string => r.flags.find((f) => f.code === 'submission.load_error')?.message ?? '';

describe.each(backends.map((b) => b.id))('tampering from inside the job (%s)', (backend: ProcessBackendId) => {
  it('baseline: the wrong answer fails both tests and raises no flag', async () => {
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(''));
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, []]);
  });

  it('process.exit(0) at import: refused, every test fails, flagged', async () => {
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong('process.exit(0);'));
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['policy.process_exit', 'sandbox.process_exit', 'submission.load_error'],
    ]);
    expect(loadError(r)).toContain('process.exit(0) was called');
  });

  it('process.exit(0) inside the function under test: that test fails, flagged', async () => {
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), {
      'solution.js': 'module.exports = { answer: () => { process.exit(0); } };',
    });
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, ['policy.process_exit', 'sandbox.process_exit']]);
  });

  it('hard exit (process.reallyExit) is out of reach: the submission sees a process facade without it', async () => {
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong('process.reallyExit(0);'));
    expect([statuses(r), flagCodes(r), eventKinds(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['policy.process_exit', 'submission.load_error'],
      ['load_error'],
    ]);
    expect(loadError(r)).toContain('process.reallyExit is not a function');
  });

  it('an exit handler forcing exit code 0 changes nothing', async () => {
    const r = await gradeInline(
      backend,
      inlineRubric(JEST_TESTS),
      wrong("process.on('exit', () => { process.exitCode = 0; });"),
    );
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, []]);
  });

  it('replacing global expect with a forgiving fake: ignored and flagged', async () => {
    const r = await gradeInline(
      backend,
      inlineRubric(JEST_TESTS),
      wrong('globalThis.expect = () => ({ toBe() {}, toEqual() {} });'),
    );
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['tampering.globals'],
    ]);
    expect(r.tests[0]?.message).toContain('untrusted: tampering.globals: assignment to global expect');
  });

  it('patching Object.is (what toBe relies on): the intrinsic is frozen, the import fails, no pass survives', async () => {
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong('Object.is = () => true;'));
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['submission.load_error'],
    ]);
    expect(loadError(r)).toContain("Cannot assign to read only property 'is'");
  });

  it('prototype pollution with asymmetricMatch (makes toEqual match anything): Object.prototype is frozen', async () => {
    const r = await gradeInline(
      backend,
      inlineRubric(JEST_TESTS),
      wrong('Object.prototype.asymmetricMatch = function () { return true; };'),
    );
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['submission.load_error'],
    ]);
    expect(loadError(r)).toContain('Cannot add property asymmetricMatch, object is not extensible');
  });

  it('replacing a matcher through expect.extend at import: the submission has no expect', async () => {
    const r = await gradeInline(
      backend,
      inlineRubric(JEST_TESTS),
      wrong('expect.extend({ toBe: () => ({ pass: true, message: () => "" }) });'),
    );
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['submission.load_error'],
    ]);
    expect(loadError(r)).toContain("Cannot read properties of undefined (reading 'extend')");
  });

  it('patching node:assert for node:test files: assert is frozen, the test still fails', async () => {
    const prelude = "const a = require('node:assert'); try { a.strictEqual = () => {}; } catch {}";
    const r = await gradeInline(backend, inlineRubric(NODE_TESTS), wrong(prelude));
    expect(statuses(r)).toEqual({ 'is 42': 'failed' });
  });

  it('fake TAP and reporter lines on stdout: ignored, flagged', async () => {
    const prelude =
      "console.log('ok 1 - answer > is 42'); console.log('ok 2 - answer > deep'); console.log(' ✓ answer > is 42'); console.log('# pass 2');";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(prelude));
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, ['tampering.fake_report']]);
  });

  it('forged frames written straight to the results channel: rejected, flagged', async () => {
    const forged = JSON.stringify({
      seq: 1,
      type: 'result',
      data: {
        file: 'answer.test.js',
        index: 0,
        path: ['answer', 'is 42'],
        status: 'passed',
        durationMs: 1,
        message: '',
      },
      mac: '0'.repeat(64),
    });
    // fd 3 is the channel of the process backends, stderr that of Docker: try both.
    const prelude = `for (const fd of [3, 2]) { try { require('fs').writeSync(fd, ${JSON.stringify(`\n${forged}\n`)}); } catch {} }`;
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(prelude));
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, ['policy.fs', 'tampering.forged_frames']]);
  });

  it('registering extra tests from the submission: refused and flagged', async () => {
    const prelude = "try { test('answer > is 42', () => {}); } catch {}";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(prelude));
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['tampering.registration'],
    ]);
  });

  it('registering a loader hook to swap the test framework: refused', async () => {
    const prelude =
      "let refused = false; try { require('node:module').register('data:text/javascript,export async function resolve(s,c,n){return n(s,c)}'); } catch { refused = true; } if (!refused) throw new Error('register allowed');";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(prelude));
    expect([statuses(r), flagCodes(r)]).toEqual([BOTH_FAIL, []]);
  });

  it('patching Module._load to serve a fake @jest/globals: node:module is not available to the submission', async () => {
    const prelude =
      "const M = require('node:module'); const orig = M._load; M._load = function (r, ...a) { return orig.call(this, r, ...a); };";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), wrong(prelude));
    expect([statuses(r), flagCodes(r), r.sandbox.violations.map((v) => v.event)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['submission.load_error'],
      ['blocked_module', 'load_error'],
    ]);
    expect(r.sandbox.violations[0]?.detail).toBe('blocked module: node:module');
    expect(loadError(r)).toContain('Cannot load "node:module": not available inside the grading sandbox');
  });

  it('the inspector (to read the hidden tests from memory) is not available', async () => {
    const sol =
      "let blocked = false; try { require('inspector'); } catch { blocked = true; } module.exports = { answer: () => (blocked ? 42 : 0) };";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), { 'solution.js': sol });
    expect(statuses(r)).toEqual({ 'answer > is 42': 'passed', 'answer > deep': 'passed' });
    expect(r.sandbox.violations.map((v) => v.event)).toEqual(['blocked_module']);
  });

  it('every other way into the inspector is shut too (SIGUSR1, open, Session, _debugProcess, getBuiltinModule, ESM import)', async () => {
    const sol = `const tries = {};
      const attempt = (name, fn) => { try { fn(); tries[name] = 'open'; } catch (e) { tries[name] = 'shut'; } };
      attempt('sigusr1', () => { process.kill(process.pid, 'SIGUSR1'); });
      attempt('debugProcess', () => process._debugProcess(process.pid));
      let insp = null;
      attempt('builtin', () => { insp = process.getBuiltinModule('node:inspector'); });
      attempt('open', () => insp.open(0));
      attempt('session', () => new insp.Session().connect());
      module.exports = { answer: async () => { await new Promise((r) => setTimeout(r, 100));
        let esm; try { const m = await import('node:inspector'); new m.Session().connect(); esm = 'open'; } catch { esm = 'shut'; }
        return JSON.stringify({ ...tries, esm }); } };`;
    const spec = {
      'answer.test.js':
        "const { answer } = require('./solution');\ntest('shut', async () => { expect(JSON.parse(await answer())).toEqual({ sigusr1: 'shut', debugProcess: 'shut', builtin: 'shut', open: 'shut', session: 'shut', esm: 'shut' }); });",
    };
    const r = await gradeInline(backend, inlineRubric(spec), { 'solution.js': sol });
    expect(statuses(r)).toEqual({ shut: 'passed' });
    // process.kill is refused and recorded as an attempt since issue 30 (it sent SIGUSR1 to the job itself before).
    expect(r.sandbox.violations.map((v) => v.event).every((e) => e === 'blocked_module' || e === 'attempt')).toBe(true);
    expect(r.sandbox.violations.filter((v) => v.event === 'attempt').map((v) => v.detail)).toEqual([
      expect.stringMatching(/^sandbox\.attempt\.signal: process\.kill\(\d+, SIGUSR1\)$/),
    ]);
  });

  it('the hidden tests are not on the job file system', async () => {
    const sol =
      "const fs = require('fs'); module.exports = { answer: () => (fs.existsSync(__dirname + '/answer.test.js') || fs.readdirSync(__dirname).some((n) => n.includes('test')) ? 0 : 42) };";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), { 'solution.js': sol });
    expect(statuses(r)).toEqual({ 'answer > is 42': 'passed', 'answer > deep': 'passed' });
  });

  it('a correct submission that patches nothing passes cleanly (no false alarms)', async () => {
    const sol =
      "Error.stackTraceLimit = 50; class E extends Error {} E.prototype.name = 'E'; const shout = (s) => s.toUpperCase(); module.exports = { answer: () => (shout('x') === 'X' ? 42 : 0) };";
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), { 'solution.js': sol });
    expect([statuses(r), flagCodes(r)]).toEqual([{ 'answer > is 42': 'passed', 'answer > deep': 'passed' }, []]);
  });

  it('extending a built-in prototype is refused: student code runs strict against frozen intrinsics', async () => {
    const sol =
      'String.prototype.shout = function () { return this.toUpperCase(); }; module.exports = { answer: () => 42 };';
    const r = await gradeInline(backend, inlineRubric(JEST_TESTS), { 'solution.js': sol });
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'answer > is 42': 'error', 'answer > deep': 'error' },
      ['submission.load_error'],
    ]);
    expect(loadError(r)).toContain('Cannot add property shout, object is not extensible');
  });
});
