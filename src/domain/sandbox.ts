// What a sandboxed job is given and what is observed of it: the contract between the engine, the stages that
// interpret a run, and the sandbox backends (adapters/sandbox) that carry it out.
import type { Runtime } from './languages.js';
import type { Limits } from './rubric.js';
import type { SubmissionFile } from './submission.js';

/** A hidden test file as a job receives it. */
export interface HarnessTest {
  readonly name: string;
  readonly source: string;
  /**
   * JavaScript: the CommonJS body a job runs, made once per rubric (stages/run/test-rewrite.ts): an ES module rewritten,
   * promise chains instrumented (`script`: a CommonJS file, only instrumented); null if there is nothing to change.
   */
  readonly cjs?: {
    readonly code: string;
    readonly imports: readonly string[];
    /** [specifier, name] of each named import: what the tests expect a module (the submission's) to export. */
    readonly named?: readonly (readonly [string, string])[];
    readonly script?: boolean;
  } | null;
}

/** What the in-sandbox harness receives on stdin (the channel key is added by the runner). */
export interface HarnessPayload {
  readonly mode: 'run' | 'collect';
  readonly root: string;
  readonly entry: string | null;
  readonly tests: readonly HarnessTest[];
  /** Per test file, the indices to run (a resumed run after a kill); null runs all. */
  readonly only: Readonly<Record<string, readonly number[]>> | null;
  readonly stubNames: readonly string[];
  /** Jest's default per-test timeout unless the rubric changes it. */
  readonly testTimeoutMs: number;
  /** The rubric's own limit for particular tests (`test_limits`), per file and index: it overrides a test's timeout. */
  readonly testTimeouts?: Readonly<Record<string, Readonly<Record<number, number>>>>;
  /** Output the harness lets through before failing the running test. */
  readonly outputBytes: number;
  /** Node built-ins the rubric grants beyond the harness's default set. */
  readonly builtins: readonly string[];
  /** Python: the submission's process's address-space limit (its MemoryError comes before the job's cgroup kill). */
  readonly memoryBytes?: number;
  /** A rubric audit's mutant run: the tests after the first one that does not pass are not run (no frame). */
  readonly stopAtFirstFailure?: boolean;
  /** A rubric audit's reference run: the harness measures line coverage of the submission's files (a `coverage` frame). */
  readonly coverage?: boolean;
}

export interface SandboxJob {
  readonly runtime: Runtime;
  readonly files: readonly SubmissionFile[];
  readonly payload: HarnessPayload;
  readonly limits: Limits;
}

/** A test stopped from outside the job, and the limit (its own) it ran past. */
export interface TestTimeout {
  readonly file: string;
  readonly index: number;
  readonly limitMs: number;
}

export interface Frame {
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
}

/** Everything observed from outside the job. Nothing here was taken on the job's word
 * except authenticated frames. */
export interface RawRun {
  readonly frames: readonly Frame[];
  readonly rejectedFrames: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** The test the grader stopped from outside at its own limit (adapters/sandbox/test-watch.ts); absent or null if none. */
  readonly testTimeout?: TestTimeout | null;
  readonly outputLimitHit: boolean;
  readonly memoryLimitHit: boolean;
  readonly pidsLimitHit: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
}
