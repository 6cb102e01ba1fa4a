# The submission's process forked ahead (issue 36, docs/python-harness.md "Fork server"). Under the fork server the
# test process starts as a copy of a template that imported pytest and the harness; before it reads its payload (so
# before the key, the hidden tests or anything of the job exists in it) it forks this child, which waits for the
# word to become the submission's process. That saves the interpreter's start and the imports of `student.py`
# (≈ 50 ms a job): the child runs student.py as `__main__` in an interpreter made to look like a fresh one.
#
# The boundary is the one a fresh `python3 -I -B student.py` has: a separate process of the same sandbox user,
# holding only its two pipes, the attempts pipe and its two mirrors (descriptors 0-2 are /dev/null and the mirrors,
# everything else is closed before the child waits), the job's environment, its own session; the test process
# becomes non-dumpable before any submission code exists (boot.non_dumpable, before the word is given). What the
# child holds of the template's memory is the same for every job: public code, no job's data.
import builtins
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
STUDENT_PY = os.path.join(HERE, 'student.py')
# The submission process's whole environment (host.Submission.start gives a fresh one the same).
JOB_ENV = {'PATH': '/usr/bin:/bin', 'HOME': '/tmp', 'LANG': 'C.UTF-8', 'TZ': 'UTC', 'PYTHONHASHSEED': '0'}
FRESH = {}  # what remember() recorded: the interpreter of a fresh submission process


def vm_size():
    """The process's address space (what RLIMIT_AS bounds), in bytes."""
    try:
        with open('/proc/self/statm', 'rb') as f:
            return int(f.read().split()[0]) * os.sysconf('SC_PAGE_SIZE')
    except FileNotFoundError:  # the template's sandbox has no /proc
        return _vm_size_probed()


def _vm_size_probed():
    """The lowest RLIMIT_AS under which one more page can still be mapped, less that page."""
    import mmap
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    page = mmap.PAGESIZE
    low, high = 0, (1 << 47) if hard == resource.RLIM_INFINITY else hard
    try:
        while high - low > page:
            mid = (low + high) // 2 // page * page
            resource.setrlimit(resource.RLIMIT_AS, (mid, hard))
            try:
                mmap.mmap(-1, page).close()
                high = mid
            except (OSError, MemoryError):
                low = mid
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return high - page


def remember():
    """In the template, before it imports anything else of the harness or pytest: student.py's imports (attempts,
    rpc, wire and theirs), and what a fresh `python3 -I -B student.py` then has — these modules, this import
    machinery and path (student.py puts HERE in front of it), its bytecode, and its address space: a forked child is
    larger by what the template imported beyond it, and is given that much more, so a submission has the same room."""
    sys.path.insert(0, HERE)
    import student
    del sys.path[0]
    FRESH.update(modules=frozenset(sys.modules) - {'student', __name__}, meta_path=tuple(sys.meta_path),
                 path_hooks=tuple(sys.path_hooks), path=tuple(p for p in sys.path if p != HERE),
                 code=student.__spec__.loader.get_code('student'), vm=vm_size())
    del sys.modules['student']


class Spare:
    """The test process's handle on a child forked ahead: its pid, the test process's ends of its pipes, and `go`."""

    def __init__(self, pid, ends, go_w):
        self.pid = pid
        self.ends = ends  # (from_child_r, to_child_w, attempts_r, out_r, err_r)
        self.go_w = go_w
        self.returncode = None

    def go(self, root, memory, output_cap, coverage):
        """Tells the child to become the submission's process; False if it is gone (then it is reaped)."""
        word = ('%s\0%d\0%d\0%d' % (root, memory, output_cap, 1 if coverage else 0)).encode('utf-8')
        try:
            os.write(self.go_w, word)
        except OSError:
            self.discard()
            return False
        finally:
            if self.go_w is not None:
                os.close(self.go_w)
                self.go_w = None
        return True

    def discard(self):
        """Not needed (a collect run, or it died waiting): killed, reaped, its pipes closed."""
        for fd in (self.go_w,) + self.ends:
            if fd is not None:
                os.close(fd)
        self.go_w, self.ends = None, ()
        try:
            os.kill(self.pid, 9)
        except OSError:
            pass
        self.wait()

    # -- what host.Submission needs of subprocess.Popen
    def poll(self):
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is not None:
            return self.returncode
        if timeout is not None:
            import select
            import subprocess
            pidfd = os.pidfd_open(self.pid)
            try:
                if not select.select([pidfd], [], [], timeout)[0]:
                    raise subprocess.TimeoutExpired('the submission process', timeout)
            finally:
                os.close(pidfd)
        _, status = os.waitpid(self.pid, 0)
        self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def fork():
    """In the test process, before its payload is read: the submission's process, waiting for `go`."""
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    attempts_r, attempts_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            child((to_child_r, from_child_w, attempts_w, out_w, err_w, go_r))
        finally:
            os._exit(70)
    for fd in (to_child_r, from_child_w, attempts_w, out_w, err_w, go_r):
        os.close(fd)
    for fd in (attempts_r, out_r, err_r):
        os.set_blocking(fd, False)
    return Spare(pid, (from_child_r, to_child_w, attempts_r, out_r, err_r), go_w)


def child(fds):
    to_child_r, from_child_w, attempts_w, out_w, err_w, go_r = fds
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for target, fd in ((0, null), (1, out_w), (2, err_w)):
        os.dup2(fd, target)
    keep = sorted({0, 1, 2, to_child_r, from_child_w, attempts_w, go_r})
    for low, high in zip(keep, keep[1:] + [1 << 16]):
        os.closerange(low + 1, high)
    for fd in (to_child_r, from_child_w, attempts_w):
        os.set_inheritable(fd, True)  # as subprocess's pass_fds leaves them
    # As a fresh process is: dumpable (the test process's flag is its own, set before any submission code runs).
    import ctypes
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
    word = b''
    while True:
        chunk = os.read(go_r, 65536)
        if not chunk:
            break
        word += chunk
    if not word:
        os._exit(0)  # not needed
    os.close(go_r)
    root, memory, output_cap, coverage = word.decode('utf-8').split('\0')
    memory = int(memory)
    if memory > 0:
        memory += max(0, vm_size() - FRESH['vm'])
    become_fresh(root)
    sys.argv = [STUDENT_PY, root, str(to_child_r), str(from_child_w), str(memory), output_cap, str(attempts_w)] + (
        ['coverage'] if coverage == '1' else [])
    # As the interpreter makes `__main__` for a script (pylifecycle's add_main_module, then the script's loader).
    main = types.ModuleType('__main__')
    main.__file__, main.__cached__, main.__builtins__, main.__annotations__ = STUDENT_PY, None, builtins, {}
    main.__loader__ = sys.modules['_frozen_importlib_external'].SourceFileLoader('__main__', STUDENT_PY)
    sys.modules['__main__'] = main
    exec(FRESH['code'], main.__dict__)
    os._exit(0)


def become_fresh(root):
    """The interpreter a fresh submission process starts with: its environment, modules, import machinery, path,
    streams and working directory. Nothing the template imported beyond student.py's own is importable by name: a
    submission's `host.py` or `plugin.py` is its own, and `import pytest` runs pytest's code afresh."""
    import atexit
    import posix
    import time
    atexit._clear()  # the template's (logging's shutdown): a fresh process has registered none
    os.environ.clear()
    os.environ.update(JOB_ENV)
    posix.environ.clear()
    posix.environ.update({k.encode(): v.encode() for k, v in JOB_ENV.items()})
    time.tzset()
    for name in [n for n in sys.modules if n not in FRESH['modules']]:
        del sys.modules[name]
    sys.meta_path[:] = FRESH['meta_path']
    sys.path_hooks[:] = FRESH['path_hooks']
    sys.path_importer_cache.clear()
    sys.path[:] = FRESH['path']
    sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
    os.chdir(root)
