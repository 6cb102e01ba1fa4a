// What Python jobs share (issue 36): the Python root, kept between grader runs in the cache directory, with the
// harness's bytecode made once inside it; under the fork server, also the template each job's test process is forked
// from, the pytest configuration it made ahead, and the submission process each test process forks before its payload.
// A submission tries to leave something behind for the next one — the harness's and pytest's bytecode, a
// sitecustomize the next interpreter would run, /tmp, its environment, builtins, sys.modules, an atexit handler, and a
// token on every module and pytest configuration object it can find in its process's memory (the template's, pruned
// from sys.modules, included) — and the next job, in the same sandbox and in a sandbox opened afresh on the kept root,
// with and without the fork server, must find none of it, in the submission's process or in the test process. Every
// job runs the same submission, so each is both the one that leaves and the one that looks: its own token tells what
// it wrote from what an earlier job did.
import { describe, expect, it } from 'vitest';
import { BACKENDS, openSandbox } from '../../src/adapters/sandbox/registry.js';
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

const testsFor = (main: string): string => `import os, sys
from solution import leave, found


def test_started_by():
    assert os.path.basename(sys.modules['__main__'].__file__) == ${JSON.stringify(main)}


def test_leave():
    # /tmp is the job's own where it is writable at all (not under unshare); nothing else may be written.
    assert [p for p in leave() if p != '/tmp/left-behind'] == []


def test_found():
    assert found() == []


def test_test_process_found_nothing(request):
    # This test process (forked from the same template as the last job's, under the fork server) carries no token.
    modules = [n for n, m in list(sys.modules.items()) if n != 'solution' and 'evigrade_left' in getattr(m, '__dict__', {})]
    assert [modules, 'evigrade_left' in vars(request.config), os.environ.get('EVIGRADE_LEFT')] == [[], False, None]
`;

// Existing files are opened for writing and closed untouched (a root that let them be written would hand the next
// job's test process to this one; through a hard link, the host's own file): only the open is tried.
const SUBMISSION = `import atexit, builtins, gc, os, sys, types, uuid

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
    for obj in reachable():
        try:
            obj.evigrade_left = TOKEN
        except (AttributeError, TypeError):
            pass
    return wrote


def reachable():
    """Every module (in sys.modules, or only in memory) and every pytest configuration object of this process."""
    objs = list(sys.modules.values()) + [o for o in gc.get_objects() if isinstance(o, types.ModuleType)]
    return objs + [o for o in gc.get_objects() if type(o).__name__ in ('Config', 'PytestPluginManager')]


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
    for obj in reachable():
        if getattr(obj, '__dict__', {}).get('evigrade_left', TOKEN) != TOKEN:
            seen.append('%s %s' % (type(obj).__name__, getattr(obj, '__name__', '')))
    return seen
`;

const rubricFor = (main: string) =>
  inlineRubric(
    { 'test_reuse.py': testsFor(main) },
    { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 5000 } },
  );
const backends = await isolatingBackends();
// Each backend as it runs by default, and with the fork server where the backend forks (bwrap).
const cases = backends.flatMap((b) => [
  { ...b, fork: false },
  ...(BACKENDS[b.id].pythonForks.ok ? [{ ...b, fork: true }] : []),
]);
const PASSED = Object.fromEntries(
  ['test_started_by', 'test_leave', 'test_found', 'test_test_process_found_nothing'].map((n) => [
    `test_reuse.py::${n}`,
    'passed',
  ]),
);

describe.each(cases)('Python jobs leave nothing for the next one ($id, fork server: $fork)', ({ id, ok, fork }) => {
  it.skipIf(!ok)(
    'three jobs in one sandbox, then two in a sandbox opened afresh on the kept root: each finds nothing',
    async () => {
      const rubric = rubricFor(fork ? 'forkserver.py' : 'boot.py');
      for (let round = 0; round < 2; round++) {
        const sandbox = await openSandbox(id, HARNESS_DIR, { pythonForkServer: fork });
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
            expect([round, job, statuses(r)]).toEqual([round, job, PASSED]);
          }
        } finally {
          sandbox.close();
        }
      }
    },
    300_000,
  );
});
