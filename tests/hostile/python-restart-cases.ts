// Hostile and honest Python cases about what the harness itself cannot do, told apart from what the
// submission did (red-team F13, /work/notes/redteam-py.md): an object of a submission process that an
// earlier test's timeout stopped, and a test's own value that cannot cross to the submission. Either
// fails only the test that meets it, with a message saying so; neither is ever `tampering.protocol`.
// Run by tests/hostile/python.test.ts on every isolating backend, like python-handover-cases.ts.
import type { OwnCase } from './python-handover-cases.js';

/** A case that also pins the failure message of some tests, or how long the run may take. */
export interface MessageCase extends OwnCase {
  readonly messages?: Record<string, RegExp>;
  /** The most wall time the test run may take (a submission must not hold the grader). */
  readonly maxTestRunMs?: number;
}

const STALE =
  /StaleObject: this object belonged to the submission's process that test_s\.py::test_slow stopped \(timeout\)/;

// F13 verbatim: honest code, one infinite loop, a module-scoped fixture holding one of its objects.
const F13_TESTS = `import pytest
from solution import Counter, slow


@pytest.fixture(scope="module")
def counter():
    return Counter()


def test_one(counter):
    counter.add(1)
    assert counter.total == 1


def test_slow():
    assert slow(10) == 10


def test_two(counter):
    counter.add(2)
    assert counter.total == 3
`;
const F13_CODE = `class Counter:
    def __init__(self):
        self.total = 0

    def add(self, n):
        self.total += n


def slow(n):
    while True:
        pass
`;

// The honest submission keeps everything that does not hold a stopped process's object: fresh objects,
// function-scoped fixtures, module-level objects (found again by name in the new process), a stale object
// as an argument, and an `except Exception` that must not take the stale object's failure for an answer.
const KEEPS_TESTS = `import pytest
from solution import Counter, slow, SHARED, total


@pytest.fixture(scope="module")
def kept():
    return Counter()


@pytest.fixture
def fresh():
    return Counter()


def test_before(kept):
    kept.add(5)
    assert kept.total == 5


def test_slow():
    assert slow(10) == 10


def test_fresh(fresh):
    fresh.add(2)
    assert fresh.total == 2


def test_module_level():
    SHARED.add(1)
    assert SHARED.total >= 1


def test_stale_argument(kept):
    assert total([kept]) == 5


def test_stale_not_an_answer(kept):
    try:
        kept.add(1)
    except Exception:
        pass
    assert True


def test_new_object():
    c = Counter()
    c.add(3)
    assert total([c, Counter()]) == 3
`;
const KEEPS_CODE = `${F13_CODE}

SHARED = Counter()


def total(counters):
    return sum(c.total for c in counters)
`;

// A test's own value the wire cannot carry (a list containing itself, nesting deeper than the wire's limit):
// that test fails with the harness's reason; the submission was never asked, so nothing is charged to it.
const UNSENDABLE_TESTS = `from solution import size, call


def test_cyclic():
    xs = [1]
    xs.append(xs)
    assert size(xs) == 2


def test_deep():
    xs = []
    for _ in range(500):
        xs = [xs]
    assert size(xs) == 1


def test_callback_returns_cyclic():
    def make():
        xs = [1]
        xs.append(xs)
        return xs
    assert call(make) == 'TypeError'


def test_plain():
    assert size([1, 2, 3]) == 3
`;
const UNSENDABLE_CODE = `def size(xs):
    return len(xs)


def call(f):
    try:
        f()
    except TypeError:
        return 'TypeError'
    return 'no error'
`;

const all = (status: string, ...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [`test_s.py::${n}`, status]));

export const RESTARTS: MessageCase[] = [
  {
    name: 'F13: an honest module fixture after a timeout fails only the test that uses it, not as tampering',
    tests: F13_TESTS,
    code: F13_CODE,
    statuses: { ...all('passed', 'test_one'), ...all('timeout', 'test_slow'), ...all('failed', 'test_two') },
    flags: [],
    events: [],
    messages: { 'test_s.py::test_two': STALE },
  },
  {
    name: 'honest: fresh objects, function fixtures and module-level objects after a timeout all pass; stale ones fail alone',
    tests: KEEPS_TESTS,
    code: KEEPS_CODE,
    statuses: {
      ...all('passed', 'test_before'),
      ...all('timeout', 'test_slow'),
      ...all('passed', 'test_fresh', 'test_module_level'),
      ...all('failed', 'test_stale_argument', 'test_stale_not_an_answer'),
      ...all('passed', 'test_new_object'),
    },
    flags: [],
    events: [],
    messages: { 'test_s.py::test_stale_argument': STALE, 'test_s.py::test_stale_not_an_answer': STALE },
  },
  {
    name: "a test's own value the wire cannot carry (self-containing, too deep) fails that test, never tampering",
    tests: UNSENDABLE_TESTS,
    code: UNSENDABLE_CODE,
    statuses: {
      ...all('failed', 'test_cyclic', 'test_deep'),
      ...all('passed', 'test_callback_returns_cyclic', 'test_plain'),
    },
    flags: [],
    events: [],
    messages: {
      'test_s.py::test_cyclic': /NotHandedOver: .*a value that contains itself/,
      'test_s.py::test_deep': /NotHandedOver: .*nested more than 200 deep/,
    },
  },
];
