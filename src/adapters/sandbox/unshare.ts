import { SANDBOX_ROOT } from './rootfs.js';
import { probe } from './probe.js';
import { JOB_ENV, type BackendDef } from './types.js';

// util-linux unshare cannot bind-mount, so the job's root is a chroot into a
// per-job tree of hard links (node, its libraries, the harness, the submission),
// all owned by root and unwritable by the job. The job runs as a host uid no
// other concurrent job on the host uses, whichever grader process runs it
// (leased host-wide: uid-lease.ts); being chrooted, it cannot create user namespaces.
export const unshare: BackendDef = {
  id: 'unshare',
  isolates: true,
  ownHostUid: true,
  needsRootTree: true,
  hostPaths: false,
  pythonForks: {
    ok: false,
    reason:
      "a job's namespaces belong to the host's user namespace: joining them takes CAP_SYS_ADMIN on the host, which the template would have to keep; jobs start a fresh interpreter",
  },
  description:
    'util-linux unshare (root only): pid, net, ipc, uts and mount namespaces; chroot into a per-job tree holding only node, the harness and ' +
    'the submission, none of it writable; a distinct unprivileged host uid per job, leased host-wide across grader processes (capabilities dropped by setuid); cgroup memory and pids ' +
    'limits; rlimits. No writable /tmp at all.',
  async available() {
    if (process.getuid?.() !== 0) return { ok: false, reason: 'the unshare backend needs root (it chroots and switches uid)' };
    return probe('unshare', ['--pid', '--fork', '--kill-child', '--mount', '--net', '--ipc', '--uts', '--setuid=65534', '--setgid=65534', '--', '/bin/true'],
      'util-linux unshare is not installed');
  },
  command(ctx) {
    return {
      file: 'unshare',
      args: [
        '--pid', '--fork', '--kill-child', '--mount', '--mount-proc', '--net', '--ipc', '--uts',
        `--root=${ctx.jobDir}`, `--wd=${SANDBOX_ROOT}`, `--setuid=${ctx.uid}`, `--setgid=${ctx.uid}`,
        '--', ...ctx.program,
      ],
      env: { ...JOB_ENV },
    };
  },
};
