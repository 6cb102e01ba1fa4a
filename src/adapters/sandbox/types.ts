import type { Limits } from '../../domain/rubric.js';

export type BackendId = 'bwrap' | 'unshare' | 'docker' | 'unsafe';

export interface Availability {
  readonly ok: boolean;
  readonly reason: string;
}

/** How each backend turns a prepared job directory into an argv. */
export interface BackendDef {
  readonly id: BackendId;
  readonly isolates: boolean;
  /** What the backend protects against and what it does not (shown in reports and docs/sandboxes.md). */
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
  /**
   * Whether Python jobs may be forked from a pre-imported test process into their own sandbox of this backend
   * (sandbox.python_fork_server; python-forks.ts), and why not where they may not.
   */
  readonly pythonForks: Availability;
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
