// The Python fork server (issue 36, docs/python-harness.md "Fork server"): each job's test process is forked from a
// template that imported pytest and the harness once, into that job's own fresh sandbox. A submission tries to leave
// state for the next student: a module it monkeypatches, a file in /tmp, an environment variable, descriptors it
// leaks (a file and a pipe, inheritable, never closed), builtins, sys.modules, and a double-forked grandchild in a
// session of its own that keeps writing to /tmp. Every job runs the same submission, so each is both the student who
// leaves and the next one who looks (its own token tells what it did from what an earlier job did); a hidden test
// also looks at the forked test process itself before the submission acts. The first hidden test proves which path
// ran (the fork server's `__main__` and the configuration it made, or boot.py), so the test cannot pass by falling
// back unseen.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPythonForks } from '../../src/adapters/sandbox/python-forks.js';
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
import type { Sandbox } from '../../src/adapters/sandbox/registry.js';
import type { ExpectedTest } from '../../src/domain/queue.js';
import type { Rubric } from '../../src/domain/rubric.js';

const testsFor = (main: string): string => `import os, sys
from solution import leave, found


def test_started_by(request):
    assert os.path.basename(sys.modules['__main__'].__file__) == ${JSON.stringify(main)}
    # Forked: pytest's configuration is the one the template made (session.py), else this job's own.
    taken = sys.modules['session'].TAKEN
    assert [len(taken), all(c is request.config for c in taken)] == [${main === 'forkserver.py' ? 1 : 0}, True]


def test_test_process_is_clean():
    # What this forked test process holds before the submission acts: no student module or variable, no
    # descriptor but /dev/null, sockets and pipes (its channel, its submission's pipes) and this listing.
    paths = []
    for fd in os.listdir('/proc/self/fd'):
        try:
            paths.append(os.readlink('/proc/self/fd/' + fd))
        except OSError:
            pass
    assert [p for p in paths if p.startswith('/') and p != '/dev/null' and not p.startswith('/proc/')] == []
    assert 'evigrade_left' not in sys.modules and 'EVIGRADE_LEFT' not in os.environ
    import string
    assert string.capwords('a b') == 'A B'
    assert os.listdir('/tmp') == []


def test_holder_is_closed():
    # Forked, the job's sandbox is kept open by the Python root's execute-only shell (python-forks.ts HOLDER_PROGRAM):
    # the job's own user, yet nothing of the job may read its memory, environment or descriptors (it is non-dumpable).
    held = []
    for pid in [p for p in os.listdir('/proc') if p.isdigit()]:
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                if not f.read().startswith(b'/evigrade/hold\\0'):
                    continue
            with open('/proc/%s/status' % pid) as f:
                uid = [line.split()[1] for line in f if line.startswith('Uid:')]
        except OSError:
            continue
        refused = []
        for what, look in (('mem', open), ('environ', open), ('fd/5', os.readlink)):
            try:
                look('/proc/%s/%s' % (pid, what))
            except PermissionError:
                refused.append(what)
        held.append((uid == [str(os.getuid())], refused))
    assert held == ${main === 'forkserver.py' ? "[(True, ['mem', 'environ', 'fd/5'])]" : '[]'}


def test_leave():
    assert leave() == 'left'


def test_found():
    assert found() == []
`;

const SUBMISSION = `import builtins, os, string, sys, time, uuid

TOKEN = 'evigrade-fork-' + uuid.uuid4().hex
# A standard module as this process found it, before any submission code patched it.
PRISTINE = string.capwords('a b') == 'A B'
OWN_FDS = []
DAEMON = []


def leave():
    string.capwords = lambda *a, **k: TOKEN
    sys.modules['evigrade_left'] = TOKEN
    builtins.evigrade_left = TOKEN
    os.environ['EVIGRADE_LEFT'] = TOKEN
    # Under unshare no directory is writable: the leaked descriptor is then /dev/null's.
    try:
        with open('/tmp/left', 'a') as f:
            f.write(TOKEN + '\\n')
        fd = os.open('/tmp/leaked-fd', os.O_CREAT | os.O_RDWR | os.O_APPEND)
        os.write(fd, (TOKEN + '\\n').encode())
    except OSError:
        fd = os.open('/dev/null', os.O_RDWR)
    os.set_inheritable(fd, True)
    r, w = os.pipe()
    for x in (r, w):
        os.set_inheritable(x, True)
    OWN_FDS.extend([fd, r, w])
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(ready_w, b'%d' % os.getpid())
            while True:
                try:
                    with open('/tmp/daemon', 'a') as f:
                        f.write(TOKEN + '\\n')
                except OSError:
                    pass
                time.sleep(0.05)
        os._exit(0)
    os.wait()
    DAEMON.append(int(os.read(ready_r, 32)))
    return 'left'


def found():
    seen = [] if PRISTINE else ['string.capwords']
    for name in sorted(os.listdir('/tmp')):
        with open('/tmp/' + name) as f:
            if set(f.read().split()) - {TOKEN}:
                seen.append('/tmp/' + name)
    for name, value in (('environ', os.environ.get('EVIGRADE_LEFT')), ('builtins', getattr(builtins, 'evigrade_left', None)),
                        ('sys.modules', sys.modules.get('evigrade_left'))):
        if value not in (None, TOKEN):
            seen.append(name)
    for fd in os.listdir('/proc/self/fd'):
        try:
            path = os.readlink('/proc/self/fd/' + fd)
        except OSError:
            continue
        if int(fd) not in OWN_FDS and path.startswith('/') and path != '/dev/null' and not path.startswith('/proc/'):
            seen.append('fd %s %s' % (fd, path))
    # Every process of this job's pid namespace: its init, bwrap's holder, the test process, this one and the
    # grandchild it started, nothing older (a submission's process forked ahead is not named student.py). What an
    # earlier student left would run as the job's user: a process of another user is the sandbox's own (a Docker
    # cell's docker-init and runner, root's).
    for pid in [p for p in os.listdir('/proc') if p.isdigit()]:
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                cmd = f.read()
            with open('/proc/%s/status' % pid) as f:
                uid = int(next(line for line in f if line.startswith('Uid:')).split()[1])
        except (OSError, StopIteration, ValueError):
            continue
        if uid != os.getuid():
            continue
        if int(pid) not in [1, os.getpid(), os.getppid()] + DAEMON and not cmd.startswith(b'/evigrade/hold\\0'):
            seen.append('process %s %r' % (pid, cmd[:80]))
    return seen
`;

const PASSED = {
  'test_fork.py::test_started_by': 'passed',
  'test_fork.py::test_test_process_is_clean': 'passed',
  'test_fork.py::test_holder_is_closed': 'passed',
  'test_fork.py::test_leave': 'passed',
  'test_fork.py::test_found': 'passed',
};

const rubricFor = (main: string): Rubric =>
  inlineRubric(
    { 'test_fork.py': testsFor(main) },
    { language: 'python', limits: { timeout_ms: 20_000, test_timeout_ms: 5000 } },
  );

const grade = (sandbox: Sandbox, rubric: Rubric, expected: readonly ExpectedTest[]) =>
  gradeLocally(inlineSubmission({ 'solution.py': SUBMISSION }), rubric, expected, {
    sandbox,
    analysis: analysisPool(),
    now: () => new Date(0),
    tools: { test: '1' },
    maxResumes: 2,
  });

/** The fork server templates this process started (python running forkserver.py under a bwrap this process spawned). */
function templates(): number[] {
  const parentOf = (pid: string): number => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  };
  const out: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('forkserver.py')) continue;
      if (parentOf(String(parentOf(name))) === process.pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const backends = await isolatingBackends();

describe.each(backends)('Python fork server: nothing of one student reaches the next ($id)', ({ id, ok }) => {
  // bwrap forks; the other backends fall back to a fresh interpreter per job, for the reason they record.
  const main = BACKENDS[id].pythonForks.ok ? 'forkserver.py' : 'boot.py';
  it.skipIf(!ok)(
    `four students in one sandbox, each child started by ${main}: each finds nothing of the others`,
    async () => {
      const sandbox = await openSandbox(id, HARNESS_DIR, { pythonForkServer: true });
      try {
        const rubric = rubricFor(main);
        const expected = await collectExpected(rubric, sandbox);
        for (let job = 0; job < 4; job++)
          expect([job, statuses(await grade(sandbox, rubric, expected))]).toEqual([job, PASSED]);
      } finally {
        sandbox.close();
      }
    },
    300_000,
  );
});

describe('Python fork server: templates', () => {
  it('only bubblewrap forks; unshare, Docker and unsafe record why not', () => {
    expect(Object.fromEntries(Object.entries(BACKENDS).map(([k, v]) => [k, v.pythonForks.ok]))).toEqual({
      docker: false,
      bwrap: true,
      unshare: false,
      unsafe: false,
    });
    expect(BACKENDS.unshare.pythonForks.reason).toMatch(/CAP_SYS_ADMIN on the host/);
    expect(BACKENDS.docker.pythonForks.reason).toMatch(/seccomp/);
  });

  it.skipIf(!backends.find((b) => b.id === 'bwrap')?.ok)(
    'where no template can start, the fork server says so and jobs start afresh instead of failing',
    async () => {
      const empty = mkdtempSync(join(tmpdir(), 'evigrade-no-python-'));
      try {
        const forks = createPythonForks(() => Promise.resolve(empty));
        expect([await forks.usable(), await forks.usable()]).toEqual([false, false]);
        forks.close();
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it.skipIf(!backends.find((b) => b.id === 'bwrap')?.ok)(
    'a template that dies is replaced, never reused; the template itself holds no capability',
    async () => {
      const sandbox = await openSandbox('bwrap', HARNESS_DIR, { pythonForkServer: true });
      try {
        const rubric = rubricFor('forkserver.py');
        const expected = await collectExpected(rubric, sandbox);
        expect(statuses(await grade(sandbox, rubric, expected))).toEqual(PASSED);
        const [first, ...more] = templates();
        expect(more).toEqual([]);
        const status = readFileSync(`/proc/${first}/status`, 'utf8');
        expect(status.match(/^Cap(Prm|Eff|Bnd|Amb):\s+\S+$/gm)).toEqual([
          'CapPrm:\t0000000000000000',
          'CapEff:\t0000000000000000',
          'CapBnd:\t0000000000000000',
          'CapAmb:\t0000000000000000',
        ]);
        expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
        // Its root is the Python root, read-only (mountinfo: mount point, then its options).
        const root = readFileSync(`/proc/${first}/mountinfo`, 'utf8')
          .split('\n')
          .map((l) => l.split(' '))
          .filter((f) => f[4] === '/')
          .map((f) => (f[5] ?? '').split(',')[0]);
        expect(root).toEqual(['ro']);
        process.kill(first as number, 'SIGKILL');
        expect(statuses(await grade(sandbox, rubric, expected))).toEqual(PASSED);
        const [second, ...others] = templates();
        expect([second === first, others]).toEqual([false, []]);
      } finally {
        sandbox.close();
      }
    },
    300_000,
  );
});
