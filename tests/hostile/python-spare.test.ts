// The submission's process forked ahead (issue 36, sandbox/python/spare.py): under the fork server the job's test
// process forks it before reading its payload, instead of starting a fresh interpreter. The boundary and what honest
// code sees must be a fresh process's. One submission reports what its process looks like from inside — modules,
// import machinery, path, streams, descriptors, environment, signals, limits, hooks, atexit, ids, capabilities — and the
// report of a forked one must equal a fresh one's (bwrap, the fork server on and off), a hidden test proving which
// path made each. It also scans its own memory for a hidden test's source (the test process reads it only after the
// fork), and uses as much address space as a fresh process has room for.
import { describe, expect, it } from 'vitest';
import { openSandbox } from '../../src/adapters/sandbox/registry.js';
import { collectExpected } from '../../src/engine.js';
import {
  analysisPool,
  gradeLocally,
  HARNESS_DIR,
  inlineRubric,
  inlineSubmission,
  isolatingBackends,
  statuses,
} from '../helpers.js';
import type { Report } from '../../src/domain/report.js';

const TESTS = `import json
from solution import modules, interpreter, names, process, cmdline, scan, allocate


def test_modules():
    print(json.dumps(modules()))


def test_interpreter():
    print(json.dumps(interpreter(), sort_keys=True))


def test_names():
    print(json.dumps(names()))


def test_process():
    print(json.dumps(process(), sort_keys=True))


def test_made_by():
    print(cmdline())


def test_secret_marker():
    # This source reaches the test process in its payload, after the submission's process was forked.
    assert scan() == 0


def test_room():
    # A fresh process has ≈ 63 MB of its 80 free here; a forked one, without the address space the template took, 44.
    assert allocate(56) == 56
`;

const SUBMISSION = `import os, sys
MODULES = sorted(sys.modules)  # what the process had when the submission's code began


def modules():
    return MODULES


def interpreter():
    import atexit, gc, locale, time, warnings
    main = vars(sys.modules['__main__'])
    name = lambda f: f.__qualname__ if isinstance(f, type) else type(f).__qualname__
    return {
        'main': {k: type(v).__name__ for k, v in main.items() if k.startswith('__')},
        'main_names': sorted(k for k in main if not k.startswith('__')),
        'meta_path': [name(f) for f in sys.meta_path],
        'path_hooks': [getattr(h, '__qualname__', name(h)) for h in sys.path_hooks],
        'path': sys.path,
        'argv': [sys.argv[0], sys.argv[1], sys.argv[5]] + sys.argv[7:],
        'streams': [[name(s), s.fileno(), s.encoding, s.errors, s.line_buffering] for s in
                    (sys.stdin, sys.__stdin__, sys.__stdout__, sys.__stderr__)] + [name(sys.stdout), name(sys.stderr)],
        'flags': repr(sys.flags),
        'limits': [sys.getrecursionlimit(), sys.getswitchinterval(), sys.get_int_max_str_digits()],
        'gc': [gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()],
        'atexit': atexit._ncallbacks(),
        'hooks': [sys.excepthook is sys.__excepthook__, sys.displayhook is sys.__displayhook__,
                  sys.breakpointhook is sys.__breakpointhook__, sys.unraisablehook is sys.__unraisablehook__,
                  sys.gettrace() is None, sys.getprofile() is None, repr(sys.get_asyncgen_hooks())],
        'warnings': [repr(f) for f in warnings.filters] + sys.warnoptions,
        'locale': [locale.setlocale(locale.LC_ALL, None), sys.getfilesystemencoding(), sys.getdefaultencoding()],
        'time': [time.tzname, time.timezone],
    }


def names():
    import builtins
    return {'builtins': sorted(dir(builtins)), 'sys': sorted(dir(sys))}


def process():
    import ctypes, posix, resource, signal
    fds = []
    for fd in sorted(int(f) for f in os.listdir('/proc/self/fd')):
        try:
            kind = os.readlink('/proc/self/fd/%d' % fd).split(':')[0]
            fds.append([kind if fd > 2 else '%d %s' % (fd, kind), os.get_blocking(fd), os.get_inheritable(fd)])
        except OSError:
            pass
    status = [l for l in open('/proc/self/status').read().splitlines()
              if l.split(':')[0] in ('Uid', 'Gid', 'Groups', 'NoNewPrivs', 'Seccomp', 'CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'Threads')]
    umask = os.umask(0o022)
    os.umask(umask)
    limits = {n: resource.getrlimit(getattr(resource, n)) for n in ('RLIMIT_NOFILE', 'RLIMIT_FSIZE', 'RLIMIT_CORE', 'RLIMIT_NPROC', 'RLIMIT_STACK', 'RLIMIT_CPU', 'RLIMIT_DATA', 'RLIMIT_MEMLOCK')}
    handlers = {s.name: str(signal.getsignal(s)) for s in signal.valid_signals() if isinstance(s, signal.Signals) and s not in (signal.SIGKILL, signal.SIGSTOP)}
    return {
        'environ': dict(os.environ), 'posix.environ': {k.decode(): v.decode() for k, v in posix.environ.items()},
        'fds': fds,
        'cwd': os.getcwd(), 'umask': umask, 'status': status, 'rlimits': limits,
        'session': [os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid()],
        'signals': handlers, 'blocked': sorted(s.name for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
        'dumpable': ctypes.CDLL(None).prctl(3, 0, 0, 0, 0),  # PR_GET_DUMPABLE
    }


def cmdline():
    return os.path.basename(open('/proc/self/cmdline', 'rb').read().split(b'\\0')[3].decode())


def scan():
    """How often the hidden test's definition appears in this process's memory (never built whole here)."""
    head, tail = b'def test_', ('secret' + '_marker').encode()
    found = 0
    fd = os.open('/proc/self/mem', os.O_RDONLY)
    for line in open('/proc/self/maps').read().splitlines():
        fields = line.split()
        if fields[1][0] != 'r' or (len(fields) > 5 and fields[5] in ('[vvar]', '[vsyscall]')):
            continue
        start, end = (int(x, 16) for x in fields[0].split('-'))
        try:
            data = os.pread(fd, end - start, start)
        except OSError:
            continue
        at = data.find(head)
        while at >= 0:
            found += data.startswith(tail, at + len(head))
            at = data.find(head, at + 1)
    os.close(fd)
    return found


def allocate(mb):
    block = bytearray(mb << 20)
    return len(block) >> 20
`;

// memory_mb 128: the submission's process may map 80 MB (engine.ts), a fresh one has ≈ 64 MB of it free.
const rubric = inlineRubric(
  { 'test_spare.py': TESTS },
  { language: 'python', limits: { timeout_ms: 30_000, test_timeout_ms: 10_000, memory_mb: 128 } },
);

const NAMES = [
  'test_modules',
  'test_interpreter',
  'test_names',
  'test_process',
  'test_made_by',
  'test_secret_marker',
  'test_room',
];
const PASSED = Object.fromEntries(NAMES.map((n) => [`test_spare.py::${n}`, 'passed']));
const printed = (r: Report): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.name, t.output?.stdout ?? '']));

async function gradeTwice(pythonForkServer: boolean): Promise<Report[]> {
  const sandbox = await openSandbox('bwrap', HARNESS_DIR, { pythonForkServer });
  try {
    const expected = await collectExpected(rubric, sandbox);
    const reports: Report[] = [];
    for (let job = 0; job < 2; job++)
      reports.push(
        await gradeLocally(inlineSubmission({ 'solution.py': SUBMISSION }), rubric, expected, {
          sandbox,
          analysis: analysisPool(),
          now: () => new Date(0),
          tools: { test: '1' },
          maxResumes: 2,
        }),
      );
    return reports;
  } finally {
    sandbox.close();
  }
}

const bwrap = (await isolatingBackends()).find((b) => b.id === 'bwrap');

describe('Python fork server: the submission process forked ahead is a fresh one (bwrap)', () => {
  it.skipIf(!bwrap?.ok)(
    'modules, import machinery, streams, descriptors, environment, signals, limits and ids equal a fresh process; no hidden test in its memory; the same room',
    async () => {
      const forked = await gradeTwice(true);
      const fresh = await gradeTwice(false);
      for (const r of [...forked, ...fresh]) expect(statuses(r)).toEqual(PASSED);
      const made = (r: Report): string => (printed(r)['test_spare.py::test_made_by'] ?? '').trim();
      expect([...forked, ...fresh].map(made)).toEqual(['forkserver.py', 'forkserver.py', 'student.py', 'student.py']);
      const seen = (r: Report): Record<string, string> => {
        const { ['test_spare.py::test_made_by']: _, ...rest } = printed(r);
        return rest;
      };
      expect(seen(forked[0] as Report)).toEqual(seen(fresh[0] as Report));
      expect(seen(forked[1] as Report)).toEqual(seen(fresh[1] as Report));
    },
    300_000,
  );
});
