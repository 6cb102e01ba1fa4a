# A request's time in the submission's processes, counted in their own time: wall time less what the
# machine kept them from running. Linux counts, per thread, how long it waited for a CPU while runnable
# (/proc/<pid>/task/<tid>/schedstat). Those waits cannot simply be summed (red-team F6): a handful of
# low-priority busy threads wait for each other almost all the time, so the sum outgrew the wall time
# and a slow algorithm, run in a forked child while the timed thread slept on a pipe, was charged nothing.
#
# What is subtracted instead is one thread's wait, less every CPU nanosecond the rest of the submission
# used meanwhile: a thread kept waiting by the submission's own work is not kept waiting by the machine.
# For one thread that is exactly its wait (so honest code on a loaded machine is charged as before); for
# threads starving each other it is nothing. Every process below this one counts: it is the submission's
# subreaper, so a child that daemonizes stays below it (and is killed with the submission's process).
import os
import signal
import time

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Orphans of the submission's processes become this process's children, never pid 1's (bwrap)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # under unshare and Docker this process is already init, which orphans go to


def _children(pid):
    kids = []
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return kids
    for tid in tids:
        try:
            with open('/proc/%d/task/%s/children' % (pid, tid)) as f:
                kids.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return kids


def descendants(root=None):
    """Every process below `root` (this process): the submission's processes, however deep."""
    out, todo = [], [os.getpid() if root is None else root]
    while todo:
        for kid in _children(todo.pop()):
            if kid not in out:
                out.append(kid)
                todo.append(kid)
    return out


def kill_descendants():
    """What the submission left running outside its process group (a setsid daemon): killed and reaped."""
    for pid in descendants():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.005)


def threads():
    """{(pid, tid): (run ns, wait ns, slices, runnable)} for every thread of the submission's processes, now."""
    out = {}
    for pid in descendants():
        try:
            tids = os.listdir('/proc/%d/task' % pid)
        except OSError:
            continue
        for tid in tids:
            try:
                with open('/proc/%d/task/%s/schedstat' % (pid, tid)) as f:
                    run, wait, slices = (int(x) for x in f.read().split()[:3])
                with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                    state = f.read().rsplit(') ', 1)[1][:1]
            except (OSError, ValueError, IndexError):
                continue
            out[(pid, tid)] = (run, wait, slices, state == 'R')
    return out


class OwnTime:
    """Bounds on the submission's own time since this request began, from samples of its threads."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.before = threads()
        self.seen = dict(self.before)  # a thread that ends keeps what it was last seen to have used
        self.last, self.last_t = self.before, self.t0

    def sample(self):
        """(upper, lower) in ms: wall less the largest wait the machine alone can explain; and what is
        proven, allowing for a wait in progress that Linux adds only when the thread next gets a CPU."""
        now, t = threads(), time.monotonic()
        self.seen.update(now)
        zero = (0, 0)
        runs = {k: v[0] - self.before.get(k, zero)[0] for k, v in self.seen.items()}
        total = sum(runs.values())
        starved = max([v[1] - self.before.get(k, zero)[1] - (total - runs[k]) for k, v in self.seen.items()] + [0])
        upper = (t - self.t0) * 1000 - starved / 1e6
        busiest = max(list(runs.values()) + [0]) / 1e6
        unproven = pending = False
        for k, v in now.items():
            if v[3]:
                pending = True
                earlier = self.last.get(k)
                # Runnable then and given no CPU since: it may have been waiting all along.
                unproven = unproven or (earlier is not None and earlier[3] and earlier[2] >= v[2])
        lower = busiest if unproven else max(busiest, upper - ((t - self.last_t) * 1000 if pending else 0))
        self.last, self.last_t = now, t
        return upper, lower
