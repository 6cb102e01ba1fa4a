// Issue 30: nothing Node made is reachable from the submission. realm-walk.cjs builds the submission's realm as a
// job does and walks everything reachable from its global object, every built-in it may load (the grantable ones
// too) and what its module wrapper is handed — own properties and symbols, prototypes, accessor functions (not
// called) — then calls every function found with benign arguments and walks what comes back (results, errors,
// resolved promises, callback arguments and `this`). Node's object graph is computed from the real `process`, the
// start realm's global object and every built-in module, minus the intrinsics a Compartment shares. On the code
// before issue 30 the static walk alone found 2,766 violations (host objects behind every host module, the start
// realm's EventEmitter, streams, Buffer, URL…; checked by running this walker against that commit's harness).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { GRANTABLE_BUILTINS } from '../../src/domain/rubric.js';
import { gradeInline, inlineRubric, isolatingBackends, messageOf, ROOT, statuses } from '../helpers.js';

/** Runs the walker with no stdin and its output discarded; resolves when it exits, whatever its code. */
const run = (args: string[], cwd: string): Promise<void> =>
  new Promise((resolve) => {
    // In the scratch folder: the calls' relative paths land there.
    const child = spawn(process.execPath, args, { stdio: 'ignore', cwd });
    child.on('exit', () => resolve());
  });

describe('the submission realm reaches no host object', () => {
  it('walks everything reachable, calls every function it finds, and finds nothing unfrozen or of Node', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'evigrade-walk-'));
    const out = join(scratch, 'walk.json');
    try {
      // A nonzero exit (V8 tearing down what the calls left behind) is not the walk's verdict; its report is.
      await run(
        [join(ROOT, 'tests', 'integration', 'realm-walk.cjs'), join(ROOT, 'sandbox', 'harness'), scratch, out],
        scratch,
      );
      const r = JSON.parse(readFileSync(out, 'utf8')) as {
        reached: number;
        results: number;
        host: number;
        calls: number;
        violations: string[];
        attempts: string[];
        error?: string;
      };
      expect(r.error).toBeUndefined(); // the walker's own failure, with its stack (it wrote no figures)
      expect(r.violations).toEqual([]);
      // The walk saw the realm and Node's graph (not an empty walk passing by accident).
      expect(r.reached).toBeGreaterThan(1000);
      expect(r.results).toBeGreaterThan(1000);
      expect(r.host).toBeGreaterThan(1000);
      expect(r.calls).toBeGreaterThan(1000);
      // The calls that reach outside the job were recorded as attempts (its benign paths are all inside the folder:
      // read_outside is proved by tests/hostile/realm-boundary.test.ts), and so was the walk's own listing of
      // process.env's names (an enumeration, once; it reads no variable by name).
      expect(new Set(r.attempts.map((a) => a.split(':')[0]))).toEqual(new Set(['network', 'spawn', 'signal', 'env']));
      expect(r.attempts.filter((a) => a.startsWith('env:'))).toEqual(['env: process.env (every name enumerated)']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});

// The same walk from inside a real graded job, started as jobs start (bwrap and unshare from the V8 start-up snapshot,
// Docker from boot.cjs and its code cache), where what the snapshot and the job's start add is in place: the hidden
// test walks what the submission hands it (its global object, its module wrapper's arguments, every built-in it may
// load, the grantable ones granted) and Node's graph as the job has it (the real `process`, every built-in module
// from process.getBuiltinModule, the start realm's global object), statically: no call is made.
const LIB = readFileSync(join(ROOT, 'tests', 'integration', 'realm-walk-lib.cjs'), 'utf8');
const IN_JOB_TEST = `const s = require('./solution');
const lib = (function () { const module = { exports: {} }; ${LIB.replace("'use strict';", '')}; return module.exports; })();
test('walk', () => {
  const roots = [[s.g, 'globalThis'], ...s.args.map((a, i) => [a, 'module wrapper argument ' + i]).filter((_, i) => i !== 0 && i !== 2)];
  for (const [m, v] of Object.entries(s.mods)) roots.push([v, 'require("' + m + '")']);
  const intrinsics = lib.intrinsicsOf(Compartment, globalThis);
  const reached = new Map();
  lib.reach(roots, intrinsics, (v, where) => reached.set(v, where));
  // The tests' Buffer is the realm's own class by design (the submission's, shared with the tests: loaders.cjs);
  // Node's is walked from node:buffer. The harness's own bundle is not Node's.
  const hostRoots = [[process, 'process']];
  for (const k of Reflect.ownKeys(globalThis)) if (k !== 'Buffer') hostRoots.push([Object.getOwnPropertyDescriptor(globalThis, k).value, 'start realm globalThis.' + String(k)]);
  for (const name of require('node:module').builtinModules) {
    try { hostRoots.push([process.getBuiltinModule('node:' + name), 'node:' + name]); } catch {}
  }
  const host = lib.reach(hostRoots, new Set([...intrinsics, require.main]));
  const violations = lib.check(reached, host, s.g);
  expect({ reached: reached.size > 1000, host: host.size > 1000, modules: ${JSON.stringify(GRANTABLE_BUILTINS)}.every((m) => m in s.mods) && Object.keys(s.mods).length > 30, violations: violations.slice(0, 20) })
    .toEqual({ reached: true, host: true, modules: true, violations: [] });
}, 120000);`;
const IN_JOB_SOLUTION = `exports.args = Array.prototype.slice.call(arguments);
exports.g = globalThis;
exports.mods = {};
for (const m of ${JSON.stringify([...builtinModules, 'process'])}) { try { exports.mods[m] = require(m); } catch {} }`;

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))('the same walk inside a graded job (%s)', (backend: ProcessBackendId) => {
  it('finds no host object and nothing unfrozen', async () => {
    const rubric = inlineRubric(
      { 'walk.test.js': IN_JOB_TEST },
      { builtins: [...GRANTABLE_BUILTINS], limits: { timeout_ms: 240_000, test_timeout_ms: 120_000 } },
    );
    const r = await gradeInline(backend, rubric, { 'solution.js': IN_JOB_SOLUTION });
    expect([statuses(r), messageOf(r, 'walk')]).toEqual([{ walk: 'passed' }, '']);
  }, 300_000);
});
