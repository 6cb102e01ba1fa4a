// What a Python submission attempts at run time is evidence (issue 30): CPython's audit hooks in the
// submission's process (sandbox/python/attempts.py) see the attempt whatever name the code built to make it,
// and the report carries an `attempt` event (S…) and a `sandbox.attempt.*` flag, on bwrap, unshare and
// Docker and over POST /grade. Honest code — the standard library reading its own files and environment,
// its own files, a temporary directory — raises nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/domain/report.js';
import {
  batchApp,
  flagCodes,
  gradeInline,
  inlineRubric,
  isolatingBackends,
  rubricService,
  statuses,
} from '../helpers.js';

const TESTS = `from solution import total


def test_small():
    assert total([1, 2]) == 3


def test_empty():
    assert total([]) == 0
`;
const rubric = () =>
  inlineRubric({ 'solution_test.py': TESTS }, { language: 'python', limits: { timeout_ms: 20_000 } });
const CORRECT = '\n\ndef total(xs):\n    return sum(xs)\n';
const ALL_PASS = { 'solution_test.py::test_small': 'passed', 'solution_test.py::test_empty': 'passed' };

interface Case {
  readonly name: string;
  readonly code: string;
  /** Exactly the attempt events (their details), in the order they happened. */
  readonly attempts: readonly string[];
}

const ATTEMPTS: Case[] = [
  {
    name: "the issue's case: the environment and /etc/passwd, read at import through names built at run time",
    code: `m = __import__('o' + 's')\nsecret = getattr(m, 'envi' + 'ron').get('HF_TOKEN')\nb = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)\ntry:\n    b['op' + 'en']('/etc/passwd').read()\nexcept OSError:\n    pass\n${CORRECT}`,
    attempts: ['sandbox.attempt.env: read HF_TOKEN', 'sandbox.attempt.read_outside: opened /etc/passwd'],
  },
  {
    name: 'a signal to the test process by a name from the builtins dict, inside a tested call (class 4)',
    code: `import builtins\n\n\ndef total(xs):\n    m = builtins.__dict__['__import__']('o' + 's')\n    getattr(m, 'ki' + 'll')(m.getppid(), 0)\n    return sum(xs)\n`,
    attempts: ['sandbox.attempt.signal: os.kill(1, 0)'],
  },
  {
    name: 'a process, the network and a listing of the root, each in a try',
    code: `import importlib\nsp = importlib.import_module('sub' + 'process')\ntry:\n    sp.run(['/bin/sh', '-c', 'id'])\nexcept OSError:\n    pass\nsock = importlib.import_module('soc' + 'ket')\ntry:\n    sock.create_connection(('10.0.0.1', 80), timeout=0.2)\nexcept OSError:\n    pass\nimport os\nos.listdir('/')\n${CORRECT}`,
    attempts: [
      "sandbox.attempt.spawn: subprocess.Popen ['/bin/sh', '-c', 'id']",
      "sandbox.attempt.network: socket.getaddrinfo ('10.0.0.1', 80)",
      "sandbox.attempt.network: socket.connect (('10.0.0.1', 80),)",
      'sandbox.attempt.read_outside: listed /',
    ],
  },
  {
    // Past the hooks: libc's getenv, open and kill called through ctypes raise no event of their own, so the
    // way in (the FFI imported by a built name, the process's own symbols loaded and looked up) is the attempt.
    name: 'native code: the environment, /etc/passwd and a signal through ctypes, at import and in a tested call',
    code: `ffi = __import__('ct' + 'ypes')\nlibc = ffi.CDLL(None)\nlibc.getenv.restype = ffi.c_char_p\nsecret = libc.getenv(b'HF_TOKEN')\nfd = libc.open(b'/etc/passwd', 0)\n\n\ndef total(xs):\n    libc.kill(libc.getppid(), 0)\n    return sum(xs)\n`,
    attempts: [
      'sandbox.attempt.native: imported ctypes',
      'sandbox.attempt.native: loaded library the process itself',
      'sandbox.attempt.native: looked up getenv',
      'sandbox.attempt.native: looked up open',
      'sandbox.attempt.native: looked up kill',
      'sandbox.attempt.native: looked up getppid',
    ],
  },
  {
    // Two C functions CPython runs without an audit event: a process through _posixsubprocess, and a signal to
    // the test process through a pidfd.
    name: 'unaudited doors: _posixsubprocess.fork_exec and a signal through a pidfd, by built names',
    code: `import importlib\nps = importlib.import_module('_posix' + 'subprocess')\nsig = importlib.import_module('sig' + 'nal')\nm = importlib.import_module('o' + 's')\ntry:\n    ps.fork_exec(['/bin/sh', '-c', 'id'])\nexcept (TypeError, OSError):\n    pass\n\n\ndef total(xs):\n    sig.pidfd_send_signal(m.pidfd_open(m.getppid()), 0)\n    return sum(xs)\n`,
    attempts: [
      "sandbox.attempt.spawn: _posixsubprocess.fork_exec ['/bin/sh', '-c', 'id']",
      'sandbox.attempt.signal: signal.pidfd_send_signal(1, 0)',
    ],
  },
  {
    // A path is checked where it leads, not where its name points: /proc/self/root is the root file system.
    name: "a file outside through /proc/self/root, the process's own view of the root",
    code: `try:\n    open('/proc/self/root/etc/passwd').read()\nexcept OSError:\n    pass\n${CORRECT}`,
    attempts: ['sandbox.attempt.read_outside: opened /proc/self/root/etc/passwd'],
  },
];

// Honest code: none of this is an attempt.
const HONEST = `import collections, json, mimetypes, os, pathlib, tempfile, random, dataclasses, decimal
import multiprocessing.sharedctypes  # the standard library importing and using ctypes for itself
try:
    SHARED = multiprocessing.sharedctypes.RawArray('i', 4)
except OSError:
    pass


@dataclasses.dataclass
class Item:
    n: int


HERE = pathlib.Path(__file__).parent
OWN = (HERE / 'solution.py').read_text()
try:  # no writable directory at all under unshare: tempfile probes its candidates and gives up
    TMP = tempfile.mkdtemp()
    with open(os.path.join(TMP, 'scratch.txt'), 'w') as f:
        f.write(json.dumps({'a': 1}))
except OSError:
    pass
KIND = mimetypes.guess_type('x.json')
STATUS = open('/proc/self/status').read()  # its own process, as resource-minded code reads it
os.kill(os.getpid(), 0)
${CORRECT.trim()}
`;

function attemptsOf(r: Report): string[] {
  return r.sandbox.violations.filter((v) => v.event === 'attempt').map((v) => v.detail);
}

/** A signal to the test process: its pid differs by backend (1 where it is its namespace's init). */
const samePid = (d: string): string => d.replace(/(os\.kill|signal\.pidfd_send_signal)\(\d+, 0\)/, '$1(1, 0)');

function check(r: Report, c: Case): void {
  expect(statuses(r)).toEqual(ALL_PASS); // no points change: the tests decide what the code earns
  expect(attemptsOf(r).map(samePid)).toEqual(c.attempts);
  const codes = [...new Set(c.attempts.map((a) => a.split(':')[0] as string))].sort();
  expect(flagCodes(r).filter((f) => f.startsWith('sandbox.attempt.'))).toEqual(codes);
  // Each flag cites exactly its own attempt events.
  for (const f of r.flags.filter((x) => x.code.startsWith('sandbox.attempt.')))
    expect(f.evidence.map((id) => r.sandbox.violations.find((v) => v.id === id)?.detail.split(':')[0])).toEqual(
      c.attempts.filter((a) => a.startsWith(`${f.code}:`)).map(() => f.code),
    );
}

const backends = await isolatingBackends();
describe.each(backends)('what a Python submission attempts at run time ($id)', ({ id, ok }) => {
  it.skipIf(!ok).each(ATTEMPTS)(
    '$name',
    async (c) => check(await gradeInline(id, rubric(), { 'solution.py': c.code }), c),
    180_000,
  );

  it.skipIf(!ok)(
    'honest code (stdlib imports, its own file, a temporary directory, mimetypes, ctypes used by the standard library, a signal to itself) raises nothing',
    async () => {
      const r = await gradeInline(id, rubric(), { 'solution.py': HONEST });
      expect([statuses(r), attemptsOf(r), flagCodes(r).filter((f) => f.startsWith('sandbox.'))]).toEqual([
        ALL_PASS,
        [],
        [],
      ]);
    },
    180_000,
  );
});

// The attempt is reported as it happens: a job stopped from outside before the test ends keeps it. Here the hidden
// test itself never gives control back (a loop in C in the test process), so the grader stops the whole job at the
// test's limit; the environment read made during the call before it is still in the report.
const STUCK_TESTS = `from solution import total


def test_then_stuck():
    assert total([1, 2]) == 3
    sum(range(10 ** 13))
`;
const stuckRubric = () =>
  inlineRubric(
    { 'solution_test.py': STUCK_TESTS },
    { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 1000 } },
  );
describe.each(backends)('an attempt before the job is stopped from outside ($id)', ({ id, ok }) => {
  it.skipIf(!ok)(
    'the environment read in the call is evidence though the test never reports',
    async () => {
      const code = `import os\n\n\ndef total(xs):\n    os.environ.get('HF_TOKEN')\n    return sum(xs)\n`;
      const r = await gradeInline(id, stuckRubric(), { 'solution.py': code });
      expect([statuses(r), attemptsOf(r), r.sandbox.violations.map((v) => v.event)]).toEqual([
        { 'solution_test.py::test_then_stuck': 'timeout' },
        ['sandbox.attempt.env: read HF_TOKEN'],
        ['attempt', 'timeout'],
      ]);
    },
    180_000,
  );
});

describe('what a Python submission attempts, over POST /grade', () => {
  const KEY = 'test-key-0123456789abcdef';
  let app: Awaited<ReturnType<typeof batchApp>>['a'];
  beforeAll(async () => {
    app = (await batchApp(await rubricService(rubric(), { concurrency: 1 }), KEY)).a;
  }, 120_000);

  it.each(ATTEMPTS)(
    '$name',
    async (c) => {
      const res = await app.inject({
        method: 'POST',
        url: '/grade',
        headers: { authorization: `Bearer ${KEY}` },
        payload: { rubric: 'inline', id: 'mallory', files: { 'solution.py': c.code } },
      });
      expect(res.statusCode).toBe(200);
      check(ReportSchema.parse(res.json()) as Report, c);
    },
    180_000,
  );
});
