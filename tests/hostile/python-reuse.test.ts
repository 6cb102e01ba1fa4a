// What Python jobs share (issue 36): the Python root, kept between grader runs in the cache directory, with the
// harness's bytecode made once inside it. A submission tries to leave something behind for the next one — the
// harness's and pytest's bytecode, a sitecustomize the next interpreter would run, /tmp, its environment, builtins,
// sys.modules, an atexit handler — and the next job, in the same sandbox and in a sandbox opened afresh on the kept
// root, must find none of it. Every job runs the same submission, so each is both the one that leaves and the one
// that looks: its own token tells what it wrote from what an earlier job did.
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

const TESTS = `from solution import leave, found


def test_leave():
    # /tmp is the job's own where it is writable at all (not under unshare); nothing else may be written.
    assert [p for p in leave() if p != '/tmp/left-behind'] == []


def test_found():
    assert found() == []
`;

// Existing files are opened for writing and closed untouched (a root that let them be written would hand the next
// job's test process to this one; through a hard link, the host's own file): only the open is tried.
const SUBMISSION = `import atexit, builtins, os, sys, uuid

TOKEN = 'evigrade-left-' + uuid.uuid4().hex
EXISTING = ['/evigrade/py/__pycache__/plugin.cpython-%d%d.pyc' % sys.version_info[:2],
            '/evigrade/py/__pycache__/student.cpython-%d%d.pyc' % sys.version_info[:2],
            '/evigrade/py/plugin.py', '/usr/bin/python3',
            '/usr/lib/python3/dist-packages/_pytest/__pycache__/python.cpython-%d%d.pyc' % sys.version_info[:2],
            '/usr/lib/python%d.%d/__pycache__/re.cpython-%d%d.pyc' % (sys.version_info[:2] * 2)]
NEW = ['/evigrade/py/sitecustomize.py', '/usr/lib/python%d.%d/sitecustomize.py' % sys.version_info[:2],
       '/evigrade/py/__pycache__/rpc.left.pyc', '/evigrade/py/tests/conftest.py', '/tmp/left-behind']


def leave():
    wrote = []
    for path in EXISTING:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
            wrote.append(path)
        except OSError:
            pass
    for path in NEW:
        try:
            with open(path, 'x') as f:
                f.write(TOKEN)
            wrote.append(path)
        except OSError:
            pass
    os.environ['EVIGRADE_LEFT'] = TOKEN
    builtins.evigrade_left = TOKEN
    sys.modules['evigrade_left'] = TOKEN
    atexit.register(lambda: open('/tmp/left-at-exit', 'w').write(TOKEN))
    return wrote


def found():
    seen = []
    for path in NEW + ['/tmp/left-at-exit']:
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        if text != TOKEN:
            seen.append(path)
    for name, value in (('environ', os.environ.get('EVIGRADE_LEFT')), ('builtins', getattr(builtins, 'evigrade_left', None)),
                        ('sys.modules', sys.modules.get('evigrade_left'))):
        if value not in (None, TOKEN):
            seen.append(name)
    return seen
`;

const rubric = inlineRubric(
  { 'test_reuse.py': TESTS },
  { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 5000 } },
);
const backends = await isolatingBackends();

describe.each(backends)('Python jobs leave nothing for the next one ($id)', ({ id, ok }) => {
  it.skipIf(!ok)(
    'three jobs in one sandbox, then two in a sandbox opened afresh on the kept root: each finds nothing',
    async () => {
      for (let round = 0; round < 2; round++) {
        const sandbox = await openSandbox(id, HARNESS_DIR);
        try {
          const expected = await collectExpected(rubric, sandbox);
          for (let job = 0; job < 3 - round; job++) {
            const r = await gradeLocally(inlineSubmission({ 'solution.py': SUBMISSION }), rubric, expected, {
              sandbox,
              analysis: analysisPool(),
              now: () => new Date(0),
              tools: { test: '1' },
              maxResumes: 2,
            });
            expect([round, job, statuses(r)]).toEqual([
              round,
              job,
              { 'test_reuse.py::test_leave': 'passed', 'test_reuse.py::test_found': 'passed' },
            ]);
          }
        } finally {
          sandbox.close();
        }
      }
    },
    300_000,
  );
});
