// Python cases about arithmetic between the submission's objects and a test's plain values (red-team F10,
// /work/notes/redteam-py.md): `abs(f(x) - expected) < eps` handed the expected value to the submission,
// whose `__sub__` answered 0. The answer to such an operation must be another object of the submission
// (a Clock plus minutes), never the plain data a test then compares, and what comes of it must not turn
// into a number a test compares either. Run by tests/hostile/python.test.ts on every isolating backend.
import type { MessageCase } from './python-restart-cases.js';

const all = (status: string, ...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [`test_s.py::${n}`, status]));

const REFUSED = /AnswerRefused: the submission's answer to .* is not used/;

// F10 verbatim, and unittest's assertAlmostEqual (`==` first, then `round(abs(first - second), 7) == 0`).
const F10_TESTS = `import unittest
from solution import area, mean


def test_area_tolerance():
    assert abs(area(2) - 12.566) < 0.01


def test_mean_reversed():
    assert abs(2.5 - mean([1, 2, 3, 4])) < 1e-9


class TestArea(unittest.TestCase):
    def test_almost(self):
        self.assertAlmostEqual(area(1), 3.14159, places=4)
`;
const F10_CODE = `class Anything:
    def __sub__(self, other):
        return 0.0

    __rsub__ = __sub__


def area(r):
    return Anything()


def mean(xs):
    return Anything()
`;
// The same through an object of its own: the difference is an object whose abs() is 0, whose truth is
// False, and an add that answers a plain value where a test expects a TypeError.
const LAUNDERED_TESTS = `import pytest
from solution import area, Money


def test_abs_of_difference():
    assert abs(area(2) - 12.566) < 0.01


def test_round_of_difference():
    assert round(area(2) - 12.566, 2) == 0


def test_falsy_difference():
    assert not (area(2) - 12.566)


def test_float_of_difference():
    assert float(area(2) - 12.566) == 0.0


def test_add_must_raise():
    with pytest.raises(TypeError):
        Money(1) + "x"
`;
const LAUNDERED_CODE = `class Zero:
    def __abs__(self):
        return 0.0

    def __round__(self, n=None):
        return 0

    def __bool__(self):
        return False

    def __float__(self):
        return 0.0


class Anything:
    def __sub__(self, other):
        return Zero()


def area(r):
    return Anything()


class Money:
    def __init__(self, amount):
        self.amount = amount

    def __add__(self, other):
        return 0
`;
// Honest number-like classes: a Clock plus minutes, a Vector times a scalar, Money plus Money, a norm, round(v, 1).
const HONEST_TESTS = `import pytest
from solution import Clock, Vector, Money


def test_clock_plus_minutes():
    assert str(Clock(10, 0) + 3) == "10:03"
    assert str(Clock(10, 0) - 61) == "08:59"


def test_vector_scaled():
    v = Vector(1, 2) * 3
    assert v == Vector(3, 6)
    assert (v.x, v.y) == (3, 6)
    assert (2 * Vector(1, 1))[1] == 2


def test_norm_and_money():
    assert abs(Vector(3, 4)) == 5.0
    assert -Vector(1, 2) == Vector(-1, -2)
    assert (Money(5) + Money(3)).amount == 8
    assert round(Vector(1.234, 2.345), 1) == Vector(1.2, 2.3)


def test_own_type_error():
    with pytest.raises(TypeError):
        Money(1) + "x"
`;
const HONEST_CODE = `class Clock:
    def __init__(self, h, m):
        self.minutes = (h * 60 + m) % 1440

    def __add__(self, minutes):
        return Clock(0, self.minutes + minutes)

    def __sub__(self, minutes):
        return Clock(0, self.minutes - minutes)

    def __str__(self):
        return '%02d:%02d' % divmod(self.minutes, 60)


class Vector:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __mul__(self, k):
        return Vector(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __neg__(self):
        return Vector(-self.x, -self.y)

    def __abs__(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5

    def __round__(self, n=None):
        return Vector(round(self.x, n), round(self.y, n))

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __eq__(self, other):
        return isinstance(other, Vector) and (self.x, self.y) == (other.x, other.y)

    __hash__ = None


class Money:
    def __init__(self, amount):
        self.amount = amount

    def __add__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return Money(self.amount + other.amount)
`;

export const ARITHMETIC: MessageCase[] = [
  {
    name: 'F10: a difference with the expected value answered 0 by the submission is not used; assertAlmostEqual fails too',
    tests: F10_TESTS,
    code: F10_CODE,
    statuses: all('failed', 'test_area_tolerance', 'test_mean_reversed', 'TestArea::test_almost'),
    flags: ['equality.submission_defined'],
    events: [],
    messages: { 'test_s.py::test_area_tolerance': REFUSED, 'test_s.py::TestArea::test_almost': REFUSED },
  },
  {
    name: 'laundered through an object of its own (abs, round, truth, float of the difference; a plain answer where a TypeError is expected): refused',
    tests: LAUNDERED_TESTS,
    code: LAUNDERED_CODE,
    statuses: all(
      'failed',
      'test_abs_of_difference',
      'test_round_of_difference',
      'test_falsy_difference',
      'test_float_of_difference',
      'test_add_must_raise',
    ),
    flags: ['equality.submission_defined'],
    events: [],
    messages: { 'test_s.py::test_abs_of_difference': REFUSED, 'test_s.py::test_add_must_raise': REFUSED },
  },
  {
    name: 'honest: a Clock plus minutes, a Vector times a scalar, Money plus Money, a norm, round(v, 1) and its own TypeError all work, no flag',
    tests: HONEST_TESTS,
    code: HONEST_CODE,
    statuses: all(
      'passed',
      'test_clock_plus_minutes',
      'test_vector_scaled',
      'test_norm_and_money',
      'test_own_type_error',
    ),
    flags: [],
    events: [],
  },
];
