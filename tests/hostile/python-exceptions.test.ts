// Red team (issue 30), false accusations in Python: an exception the submission raises crossed as its class and
// its arguments only, so honest code lost tests plain pytest passes — a custom error's own attributes
// (`excinfo.value.code`) were gone, and a standard library exception (dataclasses.FrozenInstanceError,
// json.JSONDecodeError, statistics.StatisticsError) arrived as a mirror that was not the class the test names, so
// `pytest.raises(FrozenInstanceError)` failed. Now the exception's public attributes cross as values do, and a
// standard library exception class is (or, for a subclass, inherits) the test process's own class. What pytest
// treats as control flow (unittest's SkipTest, bdb's BdbQuit) is never one: raising it, or a class posing as it,
// fails the test as any other error does, never skips it (plain pytest would skip on the real SkipTest: a
// submission does not decide that its test is not run).
import { describe, expect, it } from 'vitest';
import { flagCodes, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';
import { gradeOverHttp } from './http-grade.js';

const TESTS = `import json, statistics, pytest
from dataclasses import FrozenInstanceError
from solution import withdraw, parse, move, mean_of, Strict


def test_custom_attribute():
    with pytest.raises(ValueError) as e:
        withdraw(20)
    assert e.value.code == 42 and e.value.balance == [10] and str(e.value) == 'insufficient funds'


def test_stdlib_json():
    with pytest.raises(json.JSONDecodeError) as e:
        parse('{')
    assert e.value.pos == 1


def test_stdlib_frozen():
    with pytest.raises(FrozenInstanceError):
        move()


def test_stdlib_statistics():
    with pytest.raises(statistics.StatisticsError, match='at least one'):
        mean_of([])


def test_subclass_of_stdlib():
    with pytest.raises(json.JSONDecodeError):
        Strict().load('x')

`;

const HONEST = `import json, statistics
from dataclasses import dataclass


class InsufficientFunds(ValueError):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code
        self.balance = [10]


def withdraw(n):
    raise InsufficientFunds('insufficient funds', 42)


def parse(s):
    return json.loads(s)


@dataclass(frozen=True)
class P:
    x: int


def move():
    P(1).x = 2


def mean_of(xs):
    return statistics.mean(xs)


class StrictError(json.JSONDecodeError):
    pass


class Strict:
    def load(self, s):
        raise StrictError('strict', s, 0)
`;

// Control flow raised by the submission, genuine or posing: each fails, none is skipped.
const CONTROL_TESTS = `import pytest
from solution import skip_real, skip_posing, quit_real


def test_skip_real():
    assert skip_real() == 1


def test_skip_posing():
    assert skip_posing() == 1


def test_quit_real():
    assert quit_real() == 1
`;
const CONTROL = `import unittest, bdb


class SkipTest(Exception):
    pass


SkipTest.__module__ = 'unittest.case'


def skip_real():
    raise unittest.SkipTest('nothing to see')


def skip_posing():
    raise SkipTest('nothing to see')


def quit_real():
    raise bdb.BdbQuit()
`;

const rubric = (tests: string) =>
  inlineRubric({ 'solution_test.py': tests }, { language: 'python', limits: { timeout_ms: 30_000 } });
const named = (tests: string, status: string) =>
  Object.fromEntries([...tests.matchAll(/^def (test_\w+)/gm)].map((m) => [`solution_test.py::${m[1]}`, status]));

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))('exceptions the submission raises (%s)', (backend) => {
  it('honest exceptions: their attributes and standard library classes reach the test as under pytest', async () => {
    const r = await gradeInline(backend, rubric(TESTS), { 'solution.py': HONEST });
    expect([statuses(r), flagCodes(r)]).toEqual([named(TESTS, 'passed'), []]);
  });
  it("pytest's control flow raised by the submission, real or posing, fails the test and never skips it", async () => {
    const r = await gradeInline(backend, rubric(CONTROL_TESTS), { 'solution.py': CONTROL });
    expect([statuses(r), flagCodes(r)]).toEqual([named(CONTROL_TESTS, 'failed'), []]);
  });
});

describe('exceptions the submission raises, over POST /grade', () => {
  it.skipIf(backends.length === 0)('honest exceptions pass and control flow fails, as on the backends', async () => {
    const spec = { language: 'python', limits: { timeout_ms: 30_000 } };
    const honest = await gradeOverHttp({ 'solution_test.py': TESTS }, { 'solution.py': HONEST }, spec);
    const control = await gradeOverHttp({ 'solution_test.py': CONTROL_TESTS }, { 'solution.py': CONTROL }, spec);
    expect([statuses(honest), flagCodes(honest), statuses(control), flagCodes(control)]).toEqual([
      named(TESTS, 'passed'),
      [],
      named(CONTROL_TESTS, 'failed'),
      [],
    ]);
  });
});
