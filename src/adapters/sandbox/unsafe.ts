import { join } from 'node:path';
import { SANDBOX_HARNESS, SANDBOX_ROOT } from './rootfs.js';
import { JOB_ENV, type BackendDef } from './types.js';

/** No isolation at all: only with an explicit --unsafe-no-sandbox, for trusted code. */
export const unsafe: BackendDef = {
  id: 'unsafe',
  isolates: false,
  ownHostUid: false,
  needsRootTree: false,
  description: 'NO ISOLATION: the submission runs as the grader user with its file system and network. Trusted code only.',
  available: async () => ({ ok: true, reason: 'always available; isolates nothing' }),
  command(ctx) {
    return {
      file: process.execPath,
      args: [...ctx.nodeArgs, join(ctx.rootfs, SANDBOX_HARNESS), ...ctx.harnessArgs.map((a) => join(ctx.rootfs, a))],
      env: { ...JOB_ENV },
      root: join(ctx.jobDir, SANDBOX_ROOT),
    };
  },
};
