import { SANDBOX_ROOT } from './rootfs.js';
import { probe } from './probe.js';
import { JOB_ENV, type BackendDef } from './types.js';
import { join } from 'node:path';

// Flags from the measured facts in BRIEF.md: as root, bwrap WITHOUT its own user
// namespace would hand the job uid 0 with every capability.
const ISOLATION = [
  '--unshare-all', '--unshare-user', '--uid', '65534', '--gid', '65534', '--disable-userns',
  '--clearenv', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'sandbox',
];

// bwrap's own --dev is an unbounded writable tmpfs (with a writable /dev/shm) outside the job's tmp budget.
// Instead: a tiny tmpfs holding only the harmless devices (bound from the host, as --dev does) and the fd
// links, remounted read-only; no /dev/shm at all (as under unshare, and Docker with IpcMode none).
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom'];
const DEV = [
  '--size', String(64 * 1024), '--tmpfs', '/dev',
  ...DEVICES.flatMap((d) => ['--dev-bind', `/dev/${d}`, `/dev/${d}`]),
  '--symlink', '/proc/self/fd', '/dev/fd',
  ...['stdin', 'stdout', 'stderr'].flatMap((name, fd) => ['--symlink', `/proc/self/fd/${fd}`, `/dev/${name}`]),
  '--remount-ro', '/dev',
];

export const bwrap: BackendDef = {
  id: 'bwrap',
  isolates: true,
  ownHostUid: false,
  needsRootTree: false,
  hostPaths: false,
  // A job's sandbox is a user namespace created by the grader's uid 0: the template (uid 0 with no capability) may
  // join it, every namespace at once, and nothing outside it (docs/python-harness.md, "Fork server").
  pythonForks: { ok: true, reason: 'each forked job joins a fresh bubblewrap sandbox of its own' },
  description:
    'bubblewrap: user, pid, net, ipc, uts and mount namespaces; uid 65534 with no capabilities and no nested user namespaces; ' +
    'read-only minimal root (node + harness only) and read-only submission; read-only /dev with only null, zero, full, random and urandom, ' +
    'no /dev/shm; private size-capped /tmp (the only writable place); cgroup memory and pids limits; rlimits.',
  available: () =>
    probe('bwrap', [...ISOLATION, '--ro-bind', '/', '/', ...DEV, '--', '/bin/true'], 'bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)'),
  command(ctx) {
    const env = Object.entries(JOB_ENV).flatMap(([k, v]) => ['--setenv', k, v]);
    return {
      file: 'bwrap',
      args: [
        ...ISOLATION,
        '--ro-bind', ctx.rootfs, '/',
        '--ro-bind', join(ctx.jobDir, SANDBOX_ROOT), SANDBOX_ROOT,
        '--proc', '/proc', ...DEV,
        '--size', String(ctx.limits.tmp_kb * 1024), '--tmpfs', '/tmp',
        '--remount-ro', '/',
        ...env,
        '--chdir', SANDBOX_ROOT,
        '--', ...ctx.program,
      ],
    };
  },
};
