import { join } from 'node:path';
import { SANDBOX_HARNESS_DIR, SANDBOX_NODE, SANDBOX_ROOT } from './rootfs.js';
import { JOB_ENV, type BackendDef } from './types.js';

/** No isolation at all: only with an explicit --unsafe-no-sandbox, for trusted code. */
export const unsafe: BackendDef = {
  id: 'unsafe',
  isolates: false,
  ownHostUid: false,
  needsRootTree: false,
  hostPaths: true,
  pythonForks: { ok: false, reason: 'no sandbox to fork a job into' },
  description: 'NO ISOLATION: the submission runs as the grader user with its file system and network. Trusted code only.',
  available: async () => ({ ok: true, reason: 'always available; isolates nothing' }),
  command(ctx) {
    return {
      // The host's own interpreter; the harness files are the root's, at their host paths.
      file: ctx.program[0] === SANDBOX_NODE ? process.execPath : (ctx.program[0] as string),
      args: ctx.program.slice(1).map((a) => (a.startsWith(`${SANDBOX_HARNESS_DIR}/`) ? join(ctx.rootfs, a) : a)),
      env: { ...JOB_ENV },
      root: join(ctx.jobDir, SANDBOX_ROOT),
    };
  },
};
