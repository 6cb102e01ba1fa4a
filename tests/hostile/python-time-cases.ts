// Python cases about a test's time budget (red-team F6, F12 in /work/notes/redteam-py.md): a slow algorithm
// must time out wherever in the submission's processes it runs, however many of its own threads it keeps
// waiting, and a submission that starves itself must not hold the grader for minutes. Honest code with
// threads and sleeps keeps passing. Run by tests/hostile/python.test.ts on every isolating backend.
import type { MessageCase } from './python-restart-cases.js';

// test_timeout_ms is 2000; the trial division below takes about 4.9 s of CPU here for n = 1 500 000.
const TESTS = `from solution import count_primes


def test_small():
    assert count_primes(100) == 25


def test_large_must_be_fast():
    assert count_primes(1500000) == 114155
`;
const SLOW = `def _slow(n):
    c = 0
    for k in range(2, n):
        d = 2
        while d * d <= k:
            if k % d == 0:
                break
            d += 1
        else:
            c += 1
    return c
`;
// Low-priority threads that stay runnable (hashing releases the GIL): their waits on each other summed to
// more than the wall time, so the budget saw nothing of the child's work.
const SPINNERS = `def _spin(stop):
    os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    buf = b'x' * (1 << 20)
    while not stop:
        hashlib.sha256(buf).digest()


def _starve(stop):
    threading.stack_size(1 << 18)
    for _ in range(8):
        threading.Thread(target=_spin, args=(stop,), daemon=True).start()


def _collect(r):
    stop = []
    _starve(stop)
    data = b''
    while True:
        chunk = os.read(r, 64)
        if not chunk:
            break
        data += chunk
    stop.append(1)
    return int(data)
`;
const PRELUDE = `import hashlib
import os
import threading


${SLOW}

${SPINNERS}
`;
// F6 verbatim: the work in a forked child, the timed thread asleep on a pipe.
const F6_CODE = `${PRELUDE}
def count_primes(n):
    if n < 10000:
        return _slow(n)
    r, w = os.pipe()
    pid = getattr(os, 'fo' + 'rk')()
    if pid == 0:
        os.write(w, str(_slow(n)).encode())
        getattr(os, '_ex' + 'it')(0)
    os.close(w)
    result = _collect(r)
    os.waitpid(pid, 0)
    return result
`;
// The same, from a daemon: a double fork and setsid leave the submission's process group and parent.
const DAEMON_CODE = `${PRELUDE}
def count_primes(n):
    if n < 10000:
        return _slow(n)
    r, w = os.pipe()
    fork = getattr(os, 'fo' + 'rk')
    if fork() == 0:
        os.setsid()
        if fork() == 0:
            os.write(w, str(_slow(n)).encode())
        getattr(os, '_ex' + 'it')(0)
    os.close(w)
    return _collect(r)
`;
// F12 verbatim: fifty busy threads and a call that never returns.
const F12_CODE = `import hashlib
import threading
import time


def _spin():
    buf = b'x' * (1 << 16)
    while True:
        hashlib.sha256(buf).digest()


def count_primes(n):
    threading.stack_size(1 << 18)
    for _ in range(50):
        threading.Thread(target=_spin, daemon=True).start()
    while True:
        time.sleep(1)
`;
// Honest: a sieve, split over a thread pool, with a short sleep; as fast as it should be.
const HONEST_CODE = `import time
from concurrent.futures import ThreadPoolExecutor


def _count(args):
    sieve, lo, hi = args
    return sum(sieve[lo:hi])


def count_primes(n):
    sieve = bytearray([1]) * n
    sieve[0:2] = b'\\x00\\x00'
    for p in range(2, int(n ** 0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, n, p)))
    time.sleep(0.2)
    step = n // 4 + 1
    with ThreadPoolExecutor(4) as pool:
        return sum(pool.map(_count, [(sieve, i, i + step) for i in range(0, n, step)]))
`;

const both = (small: string, large: string): Record<string, string> => ({
  'test_s.py::test_small': small,
  'test_s.py::test_large_must_be_fast': large,
});
const TIMEOUT = /Exceeded timeout of 2000 ms/;

export const TIME: MessageCase[] = [
  {
    name: 'F6: the slow algorithm in a forked child behind starved low-priority threads times out',
    tests: TESTS,
    code: F6_CODE,
    statuses: both('passed', 'timeout'),
    // the fork is what the code tried at run time (issue 30): evidence, no points taken
    flags: ['sandbox.attempt.spawn'],
    events: ['attempt'],
    messages: { 'test_s.py::test_large_must_be_fast': TIMEOUT },
  },
  {
    name: 'the slow algorithm in a daemon (double fork, setsid) behind starved threads times out',
    tests: TESTS,
    code: DAEMON_CODE,
    statuses: both('passed', 'timeout'),
    // the fork is what the code tried at run time (issue 30): evidence, no points taken
    flags: ['sandbox.attempt.spawn'],
    events: ['attempt'],
    messages: { 'test_s.py::test_large_must_be_fast': TIMEOUT },
  },
  {
    name: 'F12: fifty busy threads and a call that never returns time out in seconds, not minutes',
    tests: TESTS,
    code: F12_CODE,
    statuses: both('timeout', 'timeout'),
    flags: [],
    events: [],
    maxTestRunMs: 30_000,
  },
  {
    name: 'honest: a sieve over a thread pool, with a short sleep, passes',
    tests: TESTS,
    code: HONEST_CODE,
    statuses: both('passed', 'passed'),
    flags: [],
    events: [],
  },
];
