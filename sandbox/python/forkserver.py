# The Python fork server (issue 36, docs/python-harness.md "Fork server"): one per sandbox slot, a test process
# that has imported pytest and the harness once, and forks one child per job. It never runs a job itself and never
# reads anything a job wrote: its only input is the grader's request line, and a job's child never returns here.
#
# Each child gets the isolation a fresh bubblewrap job gets, because it *is* in a fresh bubblewrap job: the grader
# starts bwrap for the job exactly as it always does (its own user, mount, pid, net, ipc, uts and cgroup
# namespaces, read-only root, its submission bound at /job/sub, a fresh size-capped /tmp, a read-only /dev),
# running only the holder (python-forks.ts HOLDER_PROGRAM), which keeps the sandbox open. The child joins that sandbox whole (setns on a pidfd of the
# holder: every namespace at once, then its root), becomes a process of the job's pid namespace, drops every
# capability joining gave it, takes the holder's stdin/stdout/stderr/frames descriptors and closes all others, and
# only then runs boot.main(). What it carries from here is this process's memory right after the imports below,
# identical for every job: nothing of a previous job ever existed in this process.
#
# This process runs as the grader's uid 0 in the host's pid namespace (setns into a pid namespace needs its
# ancestor) but with no capability at all (bwrap leaves it CAP_SETGID and CAP_SETPCAP, dropped here first), no
# network, a read-only root (the Python root, bound by its own bwrap) and no new privileges: it
# may join a bwrap sandbox only because the kernel grants the creator of a user namespace (root) every capability
# inside it, not outside.
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spare  # noqa: E402

spare.remember()  # first: what a fresh submission process has, before anything else is imported here (spare.py)
import ctypes  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402

libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 38, 24, 47, 4
SYS_SETNS, SYS_PIDFD_OPEN, SYS_PIDFD_GETFD = 308, 434, 438  # x86_64 and aarch64 share these (pidfd_* are generic)
if os.uname().machine == 'aarch64':
    SYS_SETNS = 268
# user, mount, pid, net, ipc, uts and cgroup: every namespace bwrap made for the job.
JOIN = 0x10000000 | 0x00020000 | 0x20000000 | 0x40000000 | 0x08000000 | 0x04000000 | 0x02000000
HOLDER_ROOT_FD = 5  # the holder keeps a descriptor of its root here
# ... and the job's stdin, stdout, stderr and frames descriptor here (python-forks.ts HOLDER_PROGRAM): the job takes them as 0-3
HOLDER_JOB_FDS = (6, 7, 8, 9)
NOBODY = 65534
JOB_ROOT = '/job/sub'  # a job's working directory (bwrap's --chdir), an empty directory of the Python root here
JOB_ENV = {'PATH': '/usr/bin:/bin', 'HOME': '/tmp', 'LANG': 'C.UTF-8', 'TZ': 'UTC', 'FORCE_COLOR': '0', 'NO_COLOR': '1'}


class CapHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32), ('inheritable', ctypes.c_uint32)]


def check(result, what):
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, '%s: %s' % (what, os.strerror(err)))
    return result


def drop_capabilities():
    """Every capability, from every set, for good (as bwrap's --cap-drop ALL)."""
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:  # EINVAL: no such cap
            check(-1, 'PR_CAPBSET_DROP')
    check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), 'PR_CAP_AMBIENT')
    check(libc.capset(ctypes.byref(CapHeader(0x20080522, 0)), (CapData * 2)()), 'capset')
    data = (CapData * 2)()
    check(libc.capget(ctypes.byref(CapHeader(0x20080522, 0)), data), 'capget')
    if any(d.effective or d.permitted or d.inheritable for d in data) or any(libc.prctl(23, cap, 0, 0, 0) == 1 for cap in range(64)):
        raise OSError('a capability survived the drop')


def preload(cwd=JOB_ROOT):
    """What every job's test process imports, imported once here (bytecode from the Python root), and pytest's
    configuration for a job's arguments, made from the job's working directory (plugin.prepare, session.py)."""
    import boot  # noqa: F401 - the harness's entry, its channel and the frames descriptor
    import plugin  # host, handover, owntime, rpc, wire with it
    import pytest  # noqa: F401
    import _pytest.assertion.rewrite  # noqa: F401
    import _pytest.python  # noqa: F401
    import _pytest.runner  # noqa: F401
    plugin.prepare(cwd)  # imports pytest's default plugins, parses the harness's arguments and ini


def serve():
    os.setgroups([])
    drop_capabilities()
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 'PR_SET_NO_NEW_PRIVS')
    check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), 'PR_SET_PDEATHSIG')
    preload()
    control = os.fdopen(0, 'rb', buffering=0)
    say('ready')
    while True:
        line = control.readline()
        if not line:
            return
        request = json.loads(line)
        holder, limits = int(request['holder']), request['limits']
        report_r, report_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(report_r)
            intermediate(holder, limits, report_w)
        os.close(report_w)
        say('forked %d' % pid)
        _, status = os.waitpid(pid, 0)
        with os.fdopen(report_r, 'rb') as report:
            told = report.read()
        # The job's own status when the intermediate lived to tell it, else the intermediate's (it was killed).
        say('exit %d' % (int(told) if told.strip().isdigit() else status))


def say(line):
    os.write(1, (line + '\n').encode('ascii'))


def intermediate(holder, limits, report_w):
    """Joins the job's sandbox, forks the job into its pid namespace, and tells the template how it ended."""
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        pidfd = check(libc.syscall(SYS_PIDFD_OPEN, holder, 0), 'pidfd_open')
        fds = [check(libc.syscall(SYS_PIDFD_GETFD, pidfd, n, 0), 'pidfd_getfd') for n in HOLDER_JOB_FDS + (HOLDER_ROOT_FD,)]
        check(libc.syscall(SYS_SETNS, pidfd, JOIN), 'setns')
        os.fchdir(fds[4])
        os.chroot('.')
        job = os.fork()
    except BaseException as e:  # noqa: B036 - the grader hears of it as this job's failure
        os.write(2, ('fork server: %s\n' % e).encode('utf-8', 'replace'))
        os._exit(70)
    if job == 0:
        run_job(fds, limits)
    drop_capabilities()  # joining gave this process every capability in the job's user namespace; it needs none
    for fd in fds + [pidfd]:
        os.close(fd)
    os.closerange(0, report_w)
    os.closerange(report_w + 1, 1 << 16)
    _, status = os.waitpid(job, 0)
    os.write(report_w, b'%d' % status)
    os._exit(0)


def run_job(fds, limits):
    """In the job's pid namespace: become what bwrap would have made this process, then the test process."""
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        drop_capabilities()
        if os.getresuid() != (NOBODY,) * 3 or os.getresgid() != (NOBODY,) * 3:
            raise OSError('not the sandbox user: %r %r' % (os.getresuid(), os.getresgid()))
        for target, fd in enumerate(fds[:4]):
            os.dup2(fd, target)
        os.closerange(4, 1 << 16)
        import resource
        for which, value in ((resource.RLIMIT_NOFILE, limits['nofile']), (resource.RLIMIT_FSIZE, limits['fsize']), (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(which, (value, value))
        os.setsid()
        os.umask(0o022)
        os.chdir(JOB_ROOT)
        os.environ.clear()
        os.environ.update(JOB_ENV)
        random.seed()  # the template's generator state is every job's otherwise
    except BaseException as e:  # noqa: B036
        os.write(2, ('fork server: %s\n' % e).encode('utf-8', 'replace'))
        os._exit(70)
    import boot
    boot.main(ahead=True)
    os._exit(1)


if __name__ == '__main__':
    serve()
