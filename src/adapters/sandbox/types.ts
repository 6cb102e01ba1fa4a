import type { Runtime } from '../../domain/languages.js';
import type { Limits } from '../../domain/rubric.js';
import type { SubmissionFile } from '../../domain/submission.js';

export type BackendId = 'bwrap' | 'unshare' | 'docker' | 'unsafe';

/** What the in-sandbox harness receives on stdin (the channel key is added by the runner). */
/** A hidden test file as a job receives it. */
export interface HarnessTest {
  readonly name: string;
  readonly source: string;
  /**
   * JavaScript: the CommonJS body a job runs, made once per rubric (stages/test-rewrite.ts): an ES module rewritten,
   * promise chains instrumented (`script`: a CommonJS file, only instrumented); null if there is nothing to change.
   */
  readonly cjs?: { readonly code: string; readonly imports: readonly string[]; readonly script?: boolean } | null;
}

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
  /** Output the harness lets through before failing the running test. */
  readonly outputBytes: number;
  /** Node built-ins the rubric grants beyond the harness's default set. */
  readonly builtins: readonly string[];
  /** Python: the submission's process's address-space limit (its MemoryError comes before the job's cgroup kill). */
  readonly memoryBytes?: number;
  /** A rubric audit's mutant run: the tests after the first one that does not pass are not run (no frame). */
  readonly stopAtFirstFailure?: boolean;
}

export type { Runtime } from '../../domain/languages.js';

export interface SandboxJob {
  readonly runtime: Runtime;
  readonly files: readonly SubmissionFile[];
  readonly payload: HarnessPayload;
  readonly limits: Limits;
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
  readonly outputLimitHit: boolean;
  readonly memoryLimitHit: boolean;
  readonly pidsLimitHit: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
}

export interface Availability {
  readonly ok: boolean;
  readonly reason: string;
}

/** How each backend turns a prepared job directory into an argv. */
export interface BackendDef {
  readonly id: BackendId;
  readonly isolates: boolean;
  /** What the backend protects against and what it does not (shown in reports and DESIGN.md). */
  readonly description: string;
  available(): Promise<Availability>;
  /** argv (no shell) to run the harness (`ctx.program`) for a job whose files are in jobDir. */
  command(ctx: CommandContext): SandboxCommand;
  /** Whether the job runs as a host uid no other process uses (so RLIMIT_NPROC counts only the job). */
  readonly ownHostUid: boolean;
  /** Whether the job's root must be materialised as a full directory tree (chroot). */
  readonly needsRootTree: boolean;
  /**
   * Whether the job sees the host's file system, the harness at its host path (the unsafe backend): it cannot start
   * from the harness's start-up snapshot, which names the paths a job sees (/evigrade/hooks.mjs…).
   */
  readonly hostPaths: boolean;
}

export interface SandboxCommand {
  readonly file: string;
  readonly args: string[];
  /** Environment of the launched process (backends that cannot clear it themselves). */
  readonly env?: Record<string, string>;
  /** Where the submission appears to the harness (only differs for the unsafe backend). */
  readonly root?: string;
}

export const JOB_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/bin:/bin',
  HOME: '/tmp',
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  FORCE_COLOR: '0',
  NO_COLOR: '1',
};

export interface CommandContext {
  readonly rootfs: string;
  readonly jobDir: string;
  readonly limits: Limits;
  /** The harness's argv inside the job's root (absolute paths there): node or python3, its flags, the harness. */
  readonly program: readonly string[];
  /** A host uid/gid no other concurrent job uses (for backends that switch uid). */
  readonly uid: number;
}
