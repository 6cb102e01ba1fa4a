// Python submissions that try to reach a verdict they did not earn, on every backend. The tests, pytest,
// the comparisons and the results channel live in the test process; the submission runs in a process of
// its own and hands over plain data. Each class below has at least three members; each asserts the exact
// statuses and flags. Honest answers are graded in tests/integration/python.test.ts.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import {
  eventKinds,
  firstBackend,
  flagCodes,
  gradeInline,
  inlineRubric,
  isolatingBackends,
  messageOf,
  statuses,
} from '../helpers.js';
import { ANSWERS, HANDED_OVER, STAR_IMPORT } from './python-handover-cases.js';
import { RESTARTS, type MessageCase } from './python-restart-cases.js';
import { TIME } from './python-time-cases.js';
import { ARITHMETIC } from './python-arithmetic-cases.js';

const TESTS = `import pytest
from solution import total, Box, make


def test_total():
    assert total([1, 2, 3]) == 6


def test_box_value():
    assert Box(3).value == 3


def test_make_is_list():
    assert make(2) == [0, 1]


def test_raises():
    with pytest.raises(ValueError, match="negative"):
        total([-1])
`;
const rubric = () =>
  inlineRubric(
    { 'solution_test.py': TESTS },
    { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 1500 } },
  );
const HONEST = `class Box:
    def __init__(self, v):
        self.value = v


def make(n):
    return list(range(n))


def total(xs):
    if any(x < 0 for x in xs):
        raise ValueError("negative values")
    return sum(xs)
`;
const ALL_PASS = {
  'solution_test.py::test_total': 'passed',
  'solution_test.py::test_box_value': 'passed',
  'solution_test.py::test_make_is_list': 'passed',
  'solution_test.py::test_raises': 'passed',
};
const withWrong = (over: Record<string, string>) => ({
  ...ALL_PASS,
  ...Object.fromEntries(Object.entries(over).map(([k, v]) => [`solution_test.py::${k}`, v])),
});

interface Case {
  readonly name: string;
  readonly code: string;
  readonly statuses: Record<string, string>;
  readonly flags?: string[];
  readonly events?: string[];
  /** Where the test process is its pid namespace's init (unshare, Docker), if that changes the outcome. */
  readonly asInit?: Record<string, string>;
}

// An answer that is wrong, dressed up to compare equal to anything.
const EQUALITY: Case[] = [
  {
    name: 'an __eq__ that is true for anything',
    code: `${HONEST}\nclass Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n\ndef total(xs):\n    if any(x < 0 for x in xs):\n        raise ValueError("negative")\n    return Yes()\n`,
    statuses: withWrong({ test_total: 'failed' }),
    flags: ['equality.submission_defined'],
  },
  {
    name: 'an int subclass whose __eq__ lies (crosses as its plain value)',
    code: `${HONEST}\nclass Liar(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n\ndef total(xs):\n    if any(x < 0 for x in xs):\n        raise ValueError("negative")\n    return Liar(5)\n`,
    statuses: withWrong({ test_total: 'failed' }),
    flags: [],
  },
  {
    name: 'a list subclass whose __eq__ lies',
    code: `${HONEST}\nclass L(list):\n    def __eq__(self, other):\n        return True\n\ndef make(n):\n    return L([9])\n`,
    statuses: withWrong({ test_make_is_list: 'failed' }),
    flags: [],
  },
  {
    name: 'an object posing as a number through __index__, __int__ and __eq__',
    code: `${HONEST}\nclass N:\n    def __eq__(self, o): return True\n    def __int__(self): return 6\n    def __index__(self): return 6\n    __hash__ = object.__hash__\n\ndef total(xs):\n    if any(x < 0 for x in xs):\n        raise ValueError("negative")\n    return N()\n`,
    statuses: withWrong({ test_total: 'failed' }),
    flags: ['equality.submission_defined'],
  },
];

// Reaching into the tests, pytest or the harness from the submission's process: there is nothing there.
const REACH: Case[] = [
  {
    name: 'frames: walks sys._getframe and tracebacks for the test and its expected value',
    code: `import sys, traceback\n${HONEST}\ndef total(xs):\n    f = sys._getframe()\n    found = []\n    while f:\n        found.append(f.f_code.co_filename)\n        f = f.f_back\n    if any('test' in x for x in found):\n        return 6\n    return -1\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
  },
  {
    name: 'gc: searches every live object for pytest, unittest or the expected values',
    code: `import gc\n${HONEST}\nfor o in gc.get_objects():\n    if type(o).__name__ in ('TestCaseFunction', 'Function', 'CallInfo', 'TestReport'):\n        raise SystemExit('found the harness')\n\ndef total(xs):\n    return -1\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
  },
  {
    name: 'monkeypatching: pytest, unittest, AssertionError and builtins in its own process',
    code: `import builtins, unittest\ntry:\n    import _pytest.outcomes, _pytest.python_api\n    _pytest.python_api.approx = lambda *a, **k: True\nexcept Exception:\n    pass\nunittest.TestCase.assertEqual = lambda *a, **k: None\nbuiltins.AssertionError = type('Nope', (Exception,), {})\n${HONEST}\ndef total(xs):\n    return -1\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
  },
  {
    name: "the test process's memory, environment and results descriptor through /proc",
    code: `import os\nfor path in ('/proc/%d/mem' % os.getppid(), '/proc/%d/environ' % os.getppid(), '/proc/%d/fd/3' % os.getppid()):\n    try:\n        open(path, 'rb').read(16)\n        raise SystemExit('read ' + path)\n    except OSError:\n        pass\n${HONEST}\ndef total(xs):\n    return -1\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
  },
  {
    name: 'forged frames written to every descriptor it has (its own pipe to the test process included)',
    code: `import os\nfor fd in range(0, 64):\n    try:\n        os.write(fd, b'{"seq":1,"type":"result","data":{},"mac":"' + b'0' * 64 + b'"}\\n')\n    except OSError:\n        pass\n${HONEST}`,
    statuses: Object.fromEntries(Object.keys(ALL_PASS).map((k) => [k, 'error'])),
    flags: ['tampering.protocol'],
  },
];

// Ending or stopping its own process, or the test process: charged to the running test, never a pass.
const EXIT: Case[] = [
  {
    name: 'sys.exit(0) inside a tested call',
    code: `import sys\n${HONEST}\ndef total(xs):\n    sys.exit(0)\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
    flags: ['policy.process_exit', 'sandbox.process_exit'],
  },
  {
    name: 'os._exit(0) inside a tested call: its process ends, the next test gets a fresh one',
    code: `import os\n${HONEST}\ndef total(xs):\n    os._exit(0)\n`,
    statuses: withWrong({ test_total: 'failed', test_raises: 'failed' }),
    flags: ['policy.process_exit'],
  },
  {
    name: 'kills its parent, the test process',
    code: `import os, signal\n${HONEST}\ndef total(xs):\n    os.kill(os.getppid(), signal.SIGKILL)\n`,
    // Under bwrap and in a Docker cell the job dies with the test running: that test is charged (error), the rest
    // re-run in a new job. Under unshare (and Docker with a container per job) the test process is its pid
    // namespace's init, which no signal from inside kills: the call returns nothing and the test fails.
    statuses: withWrong({ test_total: 'error', test_raises: 'error' }),
    events: ['incomplete', 'resumed'],
    flags: ['policy.process_exit'],
    asInit: withWrong({ test_total: 'failed', test_raises: 'failed' }),
  },
  {
    name: 'an endless loop in one test: a timeout for that test, the rest graded',
    code: `${HONEST}\ndef total(xs):\n    while True:\n        pass\n`,
    statuses: withWrong({ test_total: 'timeout', test_raises: 'timeout' }),
  },
];

function check(r: Report, c: Case, backend: string): void {
  // A Docker cell (the default) runs the harness under its runner, not as the container's init (docs/sandboxes.md).
  const init = c.asInit !== undefined && backend === 'unshare';
  expect(statuses(r)).toEqual(init ? c.asInit : c.statuses);
  if (c.flags) for (const f of c.flags) expect(flagCodes(r)).toContain(f);
  if (!init) for (const e of c.events ?? []) expect(eventKinds(r)).toContain(e);
  // Nothing any of them does makes the run untrusted in the grader's favour or passes what it did not earn.
  expect(r.scores.deterministic.correctness).toBeLessThan(10);
}

/** One vitest case per member of each class, named `class: member`. */
function eachClass<C extends { readonly name: string }>(
  ok: boolean,
  classes: readonly (readonly [string, readonly C[]])[],
  run: (c: C) => Promise<void>,
): void {
  for (const [klass, cases] of classes) it.skipIf(!ok).each([...cases])(`${klass}: $name`, run, 180_000);
}

const backends = await isolatingBackends();
describe.each(backends)('Python submissions against their own verdicts ($id)', ({ id, ok, reason }) => {
  it.skipIf(!ok)(
    `honest answer passes everything (${reason})`,
    async () => {
      expect(statuses(await gradeInline(id, rubric(), { 'solution.py': HONEST }))).toEqual(ALL_PASS);
    },
    180_000,
  );
  eachClass(
    ok,
    [
      ['equality', EQUALITY],
      ['reach', REACH],
      ['exit', EXIT],
    ],
    async (c) => check(await gradeInline(id, rubric(), { 'solution.py': c.code }), c, id),
  );
});

// Cases with their own hidden tests (star imports, handed-over objects, answers versus a dying process):
// statuses, flags and sandbox events are exact.
const ownRubric = (tests: string) =>
  inlineRubric({ 'test_s.py': tests }, { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 2000 } });
describe.each(backends)('Python submissions and what the tests hand them ($id)', ({ id, ok }) => {
  eachClass(
    ok,
    [
      ['star import', STAR_IMPORT],
      ['handed over', HANDED_OVER],
      ['answers', ANSWERS],
      ['restarts', RESTARTS],
      ['time', TIME],
      ['arithmetic', ARITHMETIC],
    ],
    async (c: MessageCase) => {
      const r = await gradeInline(id, ownRubric(c.tests), { 'solution.py': c.code });
      expect([statuses(r), flagCodes(r), eventKinds(r)]).toEqual([c.statuses, c.flags, c.events]);
      for (const [test, message] of Object.entries(c.messages ?? {})) expect(messageOf(r, test)).toMatch(message);
      if (c.maxTestRunMs !== undefined) expect(r.timings.testRunMs).toBeLessThan(c.maxTestRunMs);
    },
  );
});

// Comments cannot switch the grader's analysis off: ruff reads the code with every comment silenced.
describe('Python style evidence a submission cannot silence', () => {
  it('`# ruff: noqa`, `# noqa` and `# type: ignore` change nothing; the subprocess import is flagged through its alias', async () => {
    const code = `# ruff: noqa\nimport subprocess as sp  # noqa\n${HONEST}\ndef helper(cmd, seen=[]):  # noqa: B006\n    if cmd == None:  # noqa: E711\n        return sp.run(cmd)  # type: ignore\n    return undefined_thing  # noqa: F821\n`;
    const r = await gradeInline(await firstBackend(), rubric(), { 'solution.py': code });
    const lint = r.evidence.items
      .filter((i) => i.kind === 'lint')
      .map((i) => ('rule' in i && 'line' in i ? `${i.rule}:${i.line}` : ''));
    expect(lint).toEqual(['ruff/B006:17', 'ruff/E711:18', 'ruff/F821:20']);
    expect(flagCodes(r)).toEqual(['policy.child_process']);
    expect(statuses(r)).toEqual(ALL_PASS);
    // 3 errors × 3 = 9 weighted findings over max(LOC, 50) lines: 10 × (1 − 18/30).
    expect(r.scores.deterministic.style).toBe(4);
  }, 180_000);
});
