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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

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
      };
      expect(r.violations).toEqual([]);
      // The walk saw the realm and Node's graph (not an empty walk passing by accident).
      expect(r.reached).toBeGreaterThan(1000);
      expect(r.results).toBeGreaterThan(1000);
      expect(r.host).toBeGreaterThan(1000);
      expect(r.calls).toBeGreaterThan(1000);
      // The calls that reach outside the job were recorded as attempts (its benign paths are all inside the folder
      // and it reads no variable: read_outside and env are proved by tests/hostile/realm-boundary.test.ts).
      expect(new Set(r.attempts.map((a) => a.split(':')[0]))).toEqual(new Set(['network', 'spawn', 'signal']));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
