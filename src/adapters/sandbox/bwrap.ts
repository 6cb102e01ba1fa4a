import { SANDBOX_HARNESS, SANDBOX_NODE, SANDBOX_ROOT } from './rootfs.js';
import { probe } from './probe.js';
import { JOB_ENV, type BackendDef } from './types.js';
import { join } from 'node:path';

// Flags from the measured facts in BRIEF.md: as root, bwrap WITHOUT its own user
// namespace would hand the job uid 0 with every capability.
const ISOLATION = [
  '--unshare-all', '--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns',
  '--clearenv', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'sandbox',
];

export const bwrap: BackendDef = {
  id: 'bwrap',
  isolates: true,
  ownHostUid: false,
  needsRootTree: false,
  description:
    'bubblewrap: user, pid, net, ipc, uts and mount namespaces; uid 65534 with no capabilities and no nested user namespaces; ' +
    'read-only minimal root (node + harness only) and read-only submission; private size-capped /tmp; cgroup memory and pids limits; rlimits.',
  available: () =>
    probe('bwrap', [...ISOLATION, '--ro-bind', '/', '/', '--', '/bin/true'], 'bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)'),
  command(ctx) {
    const env = Object.entries(JOB_ENV).flatMap(([k, v]) => ['--setenv', k, v]);
    return {
      file: 'bwrap',
      args: [
        ...ISOLATION,
        '--ro-bind', ctx.rootfs, '/',
        '--ro-bind', join(ctx.jobDir, SANDBOX_ROOT), SANDBOX_ROOT,
        '--proc', '/proc', '--dev', '/dev',
        '--size', String(ctx.limits.tmp_kb * 1024), '--tmpfs', '/tmp',
        '--remount-ro', '/',
        ...env,
        '--chdir', SANDBOX_ROOT,
        '--', SANDBOX_NODE, ...ctx.nodeArgs, SANDBOX_HARNESS, ...ctx.harnessArgs,
      ],
    };
  },
};
