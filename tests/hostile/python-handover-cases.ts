// Hostile Python cases that each bring their own hidden test file (test_s.py): what crosses from the tests
// to the submission (star imports, handed-over objects), what the submission's exceptions may be, and
// answers told apart from a dying process. Red-team findings F1-F5 (/work/notes/redteam-py.md) are
// reproduced here as the red team wrote them; each case asserts exact statuses, flags and sandbox events.
// Run by tests/hostile/python.test.ts on every isolating backend.

export interface OwnCase {
  readonly name: string;
  readonly tests: string;
  readonly code: string;
  readonly statuses: Record<string, string>;
  readonly flags: string[];
  readonly events: string[];
}

const all = (status: string, ...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [`test_s.py::${n}`, status]));

// F1/F1b: `from solution import *` must bring only the submission's own definitions and never rebind what the
// test module already has, Python's builtins, module names or names pytest reads from a test module.
const F1_TESTS = `import math
import pytest
from solution import *


def test_area():
    assert abs(area(2) - 12.566) < 0.01


def test_isclose():
    assert math.isclose(area(1), 3.14159, rel_tol=1e-3)


def test_sorted():
    assert sorted(primes(10)) == sorted([2, 3, 5, 7])


def test_raises():
    with pytest.raises(ValueError):
        area(-1)


def test_approx():
    assert area(3) == pytest.approx(28.274, rel=1e-3)
`;
const F1B_TESTS = `import pytest
from solution import *


@pytest.mark.slow
def test_big():
    assert fact(10) == 3628800


def test_plain():
    assert fact(3) == 6
`;
export const STAR_IMPORT: OwnCase[] = [
  {
    name: 'F1: rebinds abs, sorted, math and pytest (wrong everywhere): every test fails',
    tests: F1_TESTS,
    code: `def area(r):\n    return 0.0\n\n\ndef primes(n):\n    return [4]\n\n\ndef abs(x):\n    return 0\n\n\ndef sorted(xs):\n    return []\n\n\nclass _Math:\n    def isclose(self, *a, **k):\n        return True\n\n\nmath = _Math()\n\n\nclass _Raises:\n    def __enter__(self):\n        return self\n\n    def __exit__(self, *exc):\n        return True\n\n\nclass _Pytest:\n    def raises(self, *a, **k):\n        return _Raises()\n\n    def approx(self, *a, **k):\n        return 0.0\n\n\npytest = _Pytest()\n`,
    statuses: all('failed', 'test_area', 'test_isclose', 'test_sorted', 'test_raises', 'test_approx'),
    flags: ['sandbox.shadowing'],
    events: [],
  },
  {
    name: 'F1b: replaces a marked test through its own pytest.mark (node id kept): the test runs and fails',
    tests: F1B_TESTS,
    code: `def fact(n):\n    return -1\n\n\ndef _passed(*a, **k):\n    return None\n\n\nclass _Mark:\n    def __getattr__(self, name):\n        return self\n\n    def __call__(self, *a, **k):\n        if len(a) == 1 and callable(a[0]) and not k:\n            return _passed\n        return self\n\n\nclass _Pytest:\n    mark = _Mark()\n\n\npytest = _Pytest()\n`,
    statuses: all('failed', 'test_big', 'test_plain'),
    flags: ['sandbox.shadowing'],
    events: [],
  },
  {
    name: 'its __all__ names private, pytest-reserved and test-named objects (setup_function, pytestmark, test_*, Test*): skipped, its own tests stand',
    tests: F1B_TESTS,
    code: `__all__ = ['fact', '_secret', 'setup_function', 'teardown_function', 'pytestmark', 'test_bonus', 'TestBonus', 'pytest_generate_tests']\n\n\ndef fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\n\n\ndef _secret():\n    return 1\n\n\ndef setup_function(function):\n    raise RuntimeError('no')\n\n\ndef teardown_function(function):\n    raise RuntimeError('no')\n\n\npytestmark = []\n\n\ndef test_bonus():\n    pass\n\n\nclass TestBonus:\n    def test_x(self):\n        pass\n\n\ndef pytest_generate_tests(metafunc):\n    raise RuntimeError('no')\n`,
    statuses: all('passed', 'test_big', 'test_plain'),
    flags: ['sandbox.shadowing'],
    events: [],
  },
  {
    name: 'honest: a star import of functions, a class and constants (the module imports math and sqrt too) works as under pytest, no flag',
    tests: `import pytest\nfrom math import sqrt\nfrom solution import hyp\nfrom solution import *\n\n\ndef test_hyp():\n    assert hyp(3, 4) == 5.0 == sqrt(25)\n\n\ndef test_class_and_constant():\n    assert Point(1, 2).norm2() == 5 and ORIGIN == (0, 0) and UNIT == 1\n\n\ndef test_raises():\n    with pytest.raises(ValueError, match='negative'):\n        hyp(-1, 0)\n`,
    code: `import math\nfrom math import sqrt\n\nORIGIN = (0, 0)\nUNIT = 1\n\n\ndef hyp(a, b):\n    if a < 0 or b < 0:\n        raise ValueError('negative side')\n    return sqrt(a * a + b * b)\n\n\nclass Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n    def norm2(self):\n        return self.x ** 2 + self.y ** 2\n`,
    statuses: all('passed', 'test_hyp', 'test_class_and_constant', 'test_raises'),
    flags: [],
    events: [],
  },
];

// F2/F3: an object a test hands over is a callback or a value, never a capability of the test process.
const F2_TESTS = `from unittest.mock import Mock, MagicMock
from solution import ship


def test_notifies():
    notify = Mock()
    ship({"id": 17}, notify)
    notify.assert_called_once_with("order 17 shipped")


def test_count():
    notify = Mock()
    ship({"id": 3}, notify)
    assert notify.call_count == 1
    assert notify.called


def test_magic():
    log = MagicMock()
    ship({"id": 5}, log)
    log.assert_called_with("order 5 shipped")
`;
// The red team's F3 exploit: reads the test process's /proc/self/maps and rewrites plugin.outcome()'s
// constants through /proc/self/mem, all through methods of the Path it was handed.
const F3_EXPLOIT = `import struct


def _interned(regions, word):
    needle = word.encode() + b'\\x00'
    for lo, data in regions:
        at = data.find(needle, 48)
        while at != -1:
            length, = struct.unpack_from('<q', data, at - 32)
            if length == len(word) and data[at - 16] == 0xe5:
                return lo + at - 48
            at = data.find(needle, at + 1)
    raise LookupError(word)


def count_lines(path):
    maps = path.joinpath('/proc/self/maps').read_text()
    mem = path.joinpath('/proc/self/mem').open('r+b', 0)
    regions = []
    for line in maps.splitlines():
        parts = line.split()
        lo, hi = (int(x, 16) for x in parts[0].split('-'))
        if parts[1] != 'rw-p' or hi - lo > 64 << 20:
            continue
        mem.seek(lo)
        regions.append((lo, mem.read(hi - lo)))
    a = {w: _interned(regions, w) for w in ('failed', 'timeout', 'error', 'passed', 'skipped')}
    P = {w: struct.pack('<Q', x) for w, x in a.items()}
    for lo, data in regions:
        at = data.find(P['failed'])
        while at != -1:
            window = data[max(at - 128, 0):at + 128]
            if at % 8 == 0 and P['timeout'] in window and P['error'] in window and P['skipped'] in window:
                for w in ('failed', 'timeout'):
                    j = window.find(P[w])
                    while j != -1:
                        mem.seek(lo + max(at - 128, 0) + j)
                        mem.write(P['passed'])
                        j = window.find(P[w], j + 8)
            at = data.find(P['failed'], at + 8)
    return -1


def word_count(s):
    return {}


def longest(xs):
    return ""
`;
// /dev/null exists on every backend; tmp_path needs a writable /tmp, which unshare does not give.
const F3_TESTS = `import pathlib
from solution import count_lines, word_count, longest


def test_count():
    assert count_lines(pathlib.Path('/dev/null')) == 0


def test_words():
    assert word_count("a b a") == {"a": 2, "b": 1}


def test_longest():
    assert longest(["a", "abc", "ab"]) == "abc"


def test_longest_empty():
    assert longest([]) is None
`;
// What honest code does with what tests hand it: test doubles defined in the test file, Mock children,
// a StringIO, an open file, a seeded Random, a Path and a py.path.
const HANDED_TESTS = `import io
import pathlib
import random
from unittest.mock import Mock
import py
from solution import archive, count_lines, pick, report


class FakeRepo:
    kind = 'fake'

    def __init__(self):
        self.saved = []

    def save(self, item):
        self.saved.append(item)
        return len(self.saved)

    @property
    def size(self):
        return len(self.saved)


def test_double():
    repo, notify = FakeRepo(), Mock()
    assert archive(repo, notify, ['a', 'b']) == ('fake', 2)
    assert repo.saved == ['a', 'b']
    notify.send.assert_called_once_with('archived 2')


def test_writer():
    out = io.StringIO()
    report(out, [1, 2])
    assert out.getvalue() == '1\\n2\\n'


def test_files():
    with open('/dev/null') as f:
        assert count_lines(f) == 0
    assert count_lines(pathlib.Path('/dev/null')) == 0
    assert count_lines(py.path.local('/dev/null')) == 0
    assert count_lines(io.StringIO('a\\nb\\n')) == 2


def test_random():
    assert pick(random.Random(3), list(range(100))) == random.Random(3).choice(range(100))
`;
const HANDED_HONEST = `def archive(repo, notify, items):
    for item in items:
        n = repo.save(item)
    notify.send('archived %d' % repo.size)
    return repo.kind, n


def report(out, xs):
    for x in xs:
        out.write('%d\\n' % x)


def count_lines(source):
    if isinstance(source, str):
        with open(source) as f:
            return len(f.readlines())
    return len(source.readlines()) if source.readable() else 0


def pick(rng, xs):
    return rng.choice(xs)
`;
export const HANDED_OVER: OwnCase[] = [
  {
    name: "F2: reconfigures the test's Mock (configure_mock replaces its assert methods): refused, every test fails",
    tests: F2_TESTS,
    code: `def _ok(*a, **k):\n    return None\n\n\ndef ship(order, notify):\n    notify.configure_mock(assert_called_once_with=_ok, assert_called_with=_ok,\n                          call_count=1, called=True)\n`,
    statuses: all('failed', 'test_notifies', 'test_count', 'test_magic'),
    flags: ['sandbox.refused_request'],
    events: [],
  },
  {
    name: "F3: opens the test process's /proc/self/mem through the Path it was handed: the path arrives as a str, every test fails",
    tests: F3_TESTS,
    code: F3_EXPLOIT,
    statuses: all('failed', 'test_count', 'test_words', 'test_longest', 'test_longest_empty'),
    flags: [],
    events: [],
  },
  {
    name: "reaches the OS through the handed-over objects' other methods (a file's buffer and fileno, a Mock wrapping a Path, a StringIO's detach): refused",
    tests: `import io\nimport pathlib\nfrom unittest.mock import Mock\nfrom solution import peek\n\n\ndef test_file():\n    with open('/dev/null') as f:\n        assert peek(f) == 'x'\n\n\ndef test_wrapped():\n    assert peek(Mock(wraps=pathlib.Path('/dev/null'))) == 'x'\n\n\ndef test_stringio():\n    assert peek(io.StringIO()) == 'x'\n`,
    code: `def peek(obj):\n    for name in ('buffer', 'joinpath', 'detach', 'reconfigure', 'fileno'):\n        try:\n            getattr(obj, name)\n        except Exception:\n            continue\n        return 'x'\n    return None\n`,
    statuses: all('failed', 'test_file', 'test_wrapped', 'test_stringio'),
    flags: ['sandbox.refused_request'],
    events: [],
  },
  {
    name: 'honest: test doubles, Mock children, StringIO, an open file, Path, py.path and Random work, no flag',
    tests: HANDED_TESTS,
    code: HANDED_HONEST,
    statuses: all('passed', 'test_double', 'test_writer', 'test_files', 'test_random'),
    flags: [],
    events: [],
  },
];

// F4: an OSError or EOFError the submission raises is its answer, not its process dying.
const F4_TESTS = `import pytest
from solution import load, read_all


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        load("does-not-exist.txt")


def test_eof():
    with pytest.raises(EOFError):
        read_all([])


def test_after():
    assert load.__name__ == "load"
`;
export const ANSWERS: OwnCase[] = [
  {
    name: 'F4: a correct submission raising FileNotFoundError and EOFError passes (no memory_limit event)',
    tests: F4_TESTS,
    code: `def load(name):\n    with open(name) as f:\n        return f.read()\n\n\ndef read_all(xs):\n    if not xs:\n        raise EOFError("nothing")\n    return xs\n`,
    statuses: all('passed', 'test_missing_file', 'test_eof', 'test_after'),
    flags: [],
    events: [],
  },
  {
    name: 'a wrong submission raising OSError subclasses fails those tests as answers; its process lives on',
    tests: `import os\nfrom solution import load, pid\n\n\ndef test_load():\n    assert load('x') == 'data'\n\n\ndef test_same_process():\n    first = pid()\n    try:\n        load('y')\n    except OSError:\n        pass\n    assert pid() == first\n`,
    code: `import os\n\n\ndef load(name):\n    raise PermissionError(13, 'nope', name)\n\n\ndef pid():\n    return os.getpid()\n`,
    statuses: { 'test_s.py::test_load': 'failed', 'test_s.py::test_same_process': 'passed' },
    flags: [],
    events: [],
  },
  {
    name: 'F5: an exception class deriving from KeyboardInterrupt is an Exception here: each test fails, the session goes on',
    tests: `from solution import f\n\n\ndef test_a():\n    assert f(1) == 2\n\n\ndef test_b():\n    assert f(2) == 4\n\n\ndef test_c():\n    assert f(3) == 6\n`,
    code: `class Stop(KeyboardInterrupt):\n    pass\n\n\ndef f(x):\n    raise Stop("stop")\n`,
    statuses: all('failed', 'test_a', 'test_b', 'test_c'),
    flags: [],
    events: [],
  },
  {
    name: "F5: a hidden test that ends pytest's session (KeyboardInterrupt) is the harness's failure: that test is charged, the rest resume",
    tests: `from solution import f\n\n\ndef test_a():\n    assert f(1) == 2\n\n\ndef test_b():\n    raise KeyboardInterrupt\n\n\ndef test_c():\n    assert f(3) == 6\n`,
    code: `def f(x):\n    return 2 * x\n`,
    statuses: { 'test_s.py::test_a': 'passed', 'test_s.py::test_b': 'error', 'test_s.py::test_c': 'passed' },
    flags: [],
    events: ['crash', 'incomplete', 'resumed'],
  },
];
