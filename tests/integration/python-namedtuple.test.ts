// A namedtuple the submission returns (collections.namedtuple, typing.NamedTuple, a class deriving from one) reaches
// the test process as a namedtuple: `.x`, `_asdict()`, `_replace()` and the repr work as under plain pytest. It used
// to cross as the plain tuple it holds, so honest code lost every test that read a field by name. It crosses as data
// (name, field names, items; wire.py), rebuilt by the standard library, so a tuple subclass posing as a namedtuple
// with an `__eq__` that always agrees cannot answer for itself. The verdicts are checked against real pytest run on
// the same files (plainPytest), never written down.
import { describe, expect, it } from 'vitest';
import { firstBackend, flagCodes, gradeInline, inlineRubric, plainPytest, statuses } from '../helpers.js';

const SOLUTION = `import collections
from typing import NamedTuple

Point = collections.namedtuple('Point', 'x y')


class Score(NamedTuple):
    name: str
    points: int = 0


class Vector(collections.namedtuple('Vector', 'dx dy')):
    def length(self):
        return (self.dx ** 2 + self.dy ** 2) ** 0.5


class Always(tuple):
    _fields = ('x', 'y')

    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


def midpoint(a, b):
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)


def scores():
    return [Score('ada', 3), Score('bob')]


def vector(dx, dy):
    return Vector(dx, dy)


def norm_of(p):
    return (p.x ** 2 + p.y ** 2) ** 0.5


def forged():
    return Always((0, 0))
`;

const TESTS = `from solution import Point, Score, midpoint, scores, vector, norm_of, forged


def test_fields_by_name():
    m = midpoint(Point(0, 0), Point(2, 4))
    assert (m.x, m.y) == (1, 2)


def test_equal_to_a_tuple_and_to_a_point():
    assert midpoint(Point(0, 0), Point(2, 2)) == (1, 1)
    assert midpoint(Point(0, 0), Point(2, 2)) == Point(1, 1)


def test_asdict_and_replace():
    s = scores()[0]
    assert s._asdict() == {'name': 'ada', 'points': 3}
    assert s._replace(points=5).points == 5


def test_typing_namedtuple_default():
    assert [s.points for s in scores()] == [3, 0]


def test_repr():
    assert repr(midpoint(Point(0, 0), Point(2, 2))) == 'Point(x=1.0, y=1.0)'


def test_wrong_field():
    assert midpoint(Point(0, 0), Point(2, 4)).y == 3


def test_a_namedtuple_handed_to_the_submission():
    assert norm_of(Point(3, 4)) == 5


def test_fields_of_a_derived_class():
    v = vector(3, 4)
    assert (v.dx, v.dy) == (3, 4)


def test_a_method_of_a_derived_class():
    assert vector(3, 4).length() == 5


def test_forged_equality():
    assert forged() == (9, 9)
`;

// Known differences from pytest, asserted exactly: a derived class's own methods do not cross (the value is rebuilt
// as a plain namedtuple of its fields), and an `__eq__` of the submission's never answers for a value.
const DIFFERENT: Record<string, string> = {
  test_a_method_of_a_derived_class: 'failed',
  test_forged_equality: 'failed',
};

describe('a namedtuple the submission returns reaches the tests as a namedtuple', () => {
  it('gets real pytest verdict for every test but the two known differences, with no flag', async () => {
    const files = { 'test_values.py': TESTS, 'solution.py': SOLUTION };
    const pytest = plainPytest('test_values.py', files);
    // The file is only worth its name if pytest both passes and fails some of it.
    expect([pytest.test_wrong_field, pytest.test_fields_by_name, pytest.test_forged_equality]).toEqual([
      'failed',
      'passed',
      'passed',
    ]);
    const rubric = inlineRubric({ 'test_values.py': TESTS }, { language: 'python', entry: './solution.py' });
    const r = await gradeInline(await firstBackend(), rubric, { 'solution.py': SOLUTION });
    const ours = Object.fromEntries(Object.entries(statuses(r)).map(([n, s]) => [n.replace(/^.*::/, ''), s]));
    expect([ours, flagCodes(r)]).toEqual([{ ...pytest, ...DIFFERENT }, []]);
  });
});
