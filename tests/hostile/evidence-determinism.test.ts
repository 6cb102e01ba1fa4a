// Evidence is a function of the submission (issue 30): one submission of each language whose failure
// messages carry run-specific text (object addresses, temporary directories, pids) is graded twice; both
// gradings have the same evidence hash, and the messages still say what went wrong.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { firstBackend, gradeInline, inlineRubric, messageOf } from '../helpers.js';

const PY_TESTS = `from solution import make, where, who


def test_make():
    assert make() == 3


def test_where():
    assert where() == "/job/sub"


def test_who():
    assert who() == 1
`;
const PY = `import os, tempfile


class Box:
    pass


def make():
    return Box()


def where():
    return tempfile.mkdtemp()


def who():
    return repr(make) + " pid %d" % os.getpid()
`;
const JS_TESTS = `const { make, where } = require('./solution');
test('make', () => { expect(make()).toBe(3); });
test('where', () => { expect(where()).toBe('/job/sub'); });
`;
const JS = `const fs = require('fs');
module.exports = {
  make: () => 'made at 0x' + Math.floor(Math.random() * 2 ** 40 + 2 ** 40).toString(16),
  where: () => fs.mkdtempSync('/tmp/sub-'),
};
`;

const twice = async (rubric: ReturnType<typeof inlineRubric>, files: Record<string, string>): Promise<Report[]> => {
  const backend = await firstBackend();
  return [await gradeInline(backend, rubric, files), await gradeInline(backend, rubric, files)];
};

describe('the same submission graded twice has the same evidence', () => {
  it('Python: reprs with addresses, a mkdtemp path and a pid', async () => {
    const rubric = inlineRubric({ 'solution_test.py': PY_TESTS }, { language: 'python' });
    const [a, b] = (await twice(rubric, { 'solution.py': PY })) as [Report, Report];
    expect(a.tests.map((t) => t.status)).toEqual(['failed', 'failed', 'failed']);
    expect(a.evidence.hash).toBe(b.evidence.hash);
    expect(a.tests.map((t) => t.message)).toEqual(b.tests.map((t) => t.message));
    expect(messageOf(a, 'solution_test.py::test_make')).toMatch(/<solution\.Box object at 0x…1> == 3/);
    expect(messageOf(a, 'solution_test.py::test_where')).toMatch(/'\/tmp\/…1' == '\/job\/sub'/);
    expect(messageOf(a, 'solution_test.py::test_who')).toMatch(/<function make at 0x…\d+> pid …1/);
  }, 240_000);

  it("Python: pytest's cut repr of a list of objects, a pid and a repr in an exception", async () => {
    const tests = `from solution import pair, boom\n\n\ndef test_pair():\n    assert pair() == []\n\n\ndef test_boom():\n    boom()\n`;
    const code = `import os\n\n\nclass Node:\n    pass\n\n\ndef pair():\n    a, b = Node(), Node()\n    return [a, b, a]\n\n\ndef boom():\n    raise RuntimeError('worker pid %d died holding %r' % (os.getpid(), Node()))\n`;
    const rubric = inlineRubric({ 'solution_test.py': tests }, { language: 'python' });
    const [a, b] = (await twice(rubric, { 'solution.py': code })) as [Report, Report];
    expect(a.tests.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(a.evidence.items).toEqual(b.evidence.items);
    expect(a.evidence.hash).toBe(b.evidence.hash);
    // pytest cuts the list's repr in the middle, keeping an address's tail: it takes the whole address's number.
    expect(messageOf(a, 'solution_test.py::test_pair')).toBe(
      'assert [<solution.No...0x…1>] == []\n  Left contains 3 more items, first extra item: <solution.Node object at 0x…1>\n  Use -v to get more diff',
    );
    expect(messageOf(a, 'solution_test.py::test_boom')).toMatch(
      /worker pid …1 died holding <solution\.Node object at 0x…\d+>/,
    );
  }, 240_000);

  it('JavaScript: an address-like value and a mkdtemp path', async () => {
    const rubric = inlineRubric({ 'solution.test.js': JS_TESTS });
    const [a, b] = (await twice(rubric, { 'solution.js': JS })) as [Report, Report];
    expect(a.tests.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(a.evidence.items).toEqual(b.evidence.items);
    expect(a.evidence.hash).toBe(b.evidence.hash);
    expect(messageOf(a, 'make')).toMatch(/made at 0x…1/);
    expect(messageOf(a, 'where')).toMatch(/\/tmp\/…1/);
  }, 240_000);
});
