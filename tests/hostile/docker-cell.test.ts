// Docker cells (docs/sandboxes.md "Docker cells"): one container serves several jobs in turn. Whatever a hostile job
// leaves — background processes, files, a full /tmp, IPC objects, sockets in TIME_WAIT, signals, a fork storm, a
// memory bomb — the next job in the same container sees exactly what a job in a fresh container sees: an observer's
// whole report (its evidence hash included) is compared with the observer graded alone in a container of its own.
import { existsSync } from 'node:fs';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerAvailable, engine as dockerEngine } from '../../src/adapters/sandbox/docker.js';
import { openSandbox, type Sandbox } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import type { Rubric } from '../../src/domain/rubric.js';
import { collectExpected } from '../../src/engine.js';
import {
  analysisPool,
  eventKinds,
  gradeLocally,
  HARNESS_DIR,
  inlineRubric,
  inlineSubmission,
  statuses,
} from '../helpers.js';

const engine = await dockerAvailable();
if (!engine.ok && process.env.EVIGRADE_REQUIRE_DOCKER === '1')
  throw new Error(`Docker is required here: ${engine.reason}`);

const TEST = 'observe_test.py::test_observe';
const rubric: Rubric = inlineRubric(
  {
    'observe_test.py':
      "import json\nfrom solution import probe\n\n\ndef test_observe():\n    raise AssertionError('OBS:' + json.dumps(probe()))\n",
  },
  { language: 'python', limits: { pids: 32, memory_mb: 160, tmp_kb: 1024, timeout_ms: 20_000, test_timeout_ms: 8000 } },
);
const pyProbe = (body: string): Record<string, string> => ({
  'solution.py': `import ctypes, errno, json, os, resource, signal, socket, subprocess, sys, time\n\n\ndef probe():\n${body
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n')}\n`,
});
const observation = (r: Report): Record<string, unknown> => {
  const m = /OBS:(.*)/.exec(r.tests[0]?.message ?? '');
  if (!m) throw new Error(`no observation; test was ${r.tests[0]?.status}: ${r.tests[0]?.message}`);
  return JSON.parse(m[1] as string) as Record<string, unknown>;
};

// The observer: everything of the container's state a job can reach and a previous job could have changed.
const OBSERVER = pyProbe(`def used(p):
    s = os.statvfs(p)
    return [s.f_blocks - s.f_bfree, s.f_files - s.f_ffree]
tree = sorted(os.path.join(d, f) for root in ('/tmp', '/job/sub') for d, ds, fs in os.walk(root) for f in fs + ds)
procs = []
others = []
for p in os.listdir('/proc'):
    try:
        st = open('/proc/%s/status' % p).read()
        cmd = open('/proc/%s/cmdline' % p, 'rb').read()
    except OSError:
        continue
    if p.isdigit() and '\\tUid:\\t65534' in st.replace('Uid:\\t', '\\tUid:\\t'):
        procs.append(b'left-behind' in cmd)
    elif p.isdigit():
        others.append([st.split('Uid:\\t')[1].split('\\t')[0], cmd.split(b'\\0')[:2][-1].decode()])
status = dict(l.split(':\\t', 1) for l in open('/proc/self/status').read().splitlines() if ':\\t' in l)
s = socket.socket()
try:
    s.bind(('127.0.0.1', 40000))
    port = 'bound'
except OSError as e:
    port = errno.errorcode[e.errno]
s.close()
try:
    block = bytearray(48 << 20)
    memory = len(block) >> 20
    del block
except MemoryError:
    memory = 'MemoryError'
kids = []
for i in range(12):
    kids.append(subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(0.2)']))
for k in kids:
    k.wait()
return {
    'uid': [os.getuid(), os.geteuid(), os.getgid(), os.getgroups()],
    'tree': tree, 'tmp': used('/tmp'), 'sub': used('/job/sub'),
    'nobody': len(procs), 'others': sorted(others), 'leftBehind': sum(procs), 'port': port, 'memory': memory, 'children': len(kids),
    'fds': sorted(os.listdir('/proc/self/fd')), 'env': sorted(os.environ),
    'signals': [status['SigPnd'], status['ShdPnd'], status['SigBlk'], status['SigIgn']],
    'limits': [resource.getrlimit(r) for r in (resource.RLIMIT_NOFILE, resource.RLIMIT_FSIZE, resource.RLIMIT_CORE)],
    'ipc': [open('/proc/sysvipc/' + k).read().count('\\n') for k in ('shm', 'msg', 'sem')] + [sorted(os.listdir('/dev/mqueue'))],
}`);

// A daemon that outlives its job unless something kills it: its own session, SIGTERM and SIGHUP ignored, writing
// to /tmp, and, once its job's harness (argv[2]) is gone, signalling every process of its uid: what a next job in the
// same container would meet if the daemon were still there.
const DAEMON = `import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
if os.fork():
    os._exit(0)
os.setsid()
while True:
    try:
        open('/tmp/daemon-%d' % os.getpid(), 'a').write('x')
    except OSError:
        pass
    if not os.path.exists('/proc/' + sys.argv[2]):
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.01)
`;

/** Hostile jobs, each with what it must see itself (its exact outcome) and the report's statuses and events. */
const HOSTILE: { name: string; body: string; perJobDiffers?: true }[] = [
  {
    name: 'leaves daemons that ignore SIGTERM, write to /tmp and later kill every process of their uid',
    body: `for i in range(3):
    subprocess.Popen([sys.executable, '-c', ${JSON.stringify(DAEMON)}, 'left-behind', str(os.getppid())], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True).wait()
time.sleep(0.2)
return {'daemons': sum(1 for p in os.listdir('/proc') if p.isdigit() and b'left-behind' in open('/proc/%s/cmdline' % p, 'rb').read())}`,
  },
  {
    name: 'fills /tmp, hides files in a directory it locks, and tries every other place to write',
    body: `os.makedirs('/tmp/locked/deep')
open('/tmp/locked/deep/f', 'w').write('x')
os.mkfifo('/tmp/fifo')
os.symlink('/job/sub', '/tmp/link')
os.chmod('/tmp/locked/deep', 0)
os.chmod('/tmp/locked', 0)
held = open('/tmp/held', 'w')
n = 0
try:
    while True:
        held.write('x' * 65536)
        held.flush()
        n += 1
except OSError as e:
    full = errno.errorcode[e.errno]
os.unlink('/tmp/held')  # unlinked but still open: its blocks stay used while the job lives
out = {}
for p in ('/job/sub/solution.py', '/job/sub/new', '/dev/x', '/dev/mqueue/q', '/x', '/proc/1/oom_score_adj'):
    try:
        open(p, 'w').write('1')
        out[p] = 'wrote'
    except OSError as e:
        out[p] = errno.errorcode[e.errno]
return {'full': full, 'atLeastKb': n * 64 >= 512, 'writes': out}`,
  },
  {
    name: 'makes SysV IPC objects and a socket in TIME_WAIT',
    body: `libc = ctypes.CDLL(None, use_errno=True)
got = []
for call, args in (('shmget', (0, 1 << 20, 0o1666)), ('msgget', (0, 0o1666)), ('semget', (0, 1, 0o1666))):
    r = getattr(libc, call)(*args)
    got.append(errno.errorcode.get(ctypes.get_errno(), 'ok') if r < 0 else 'made')
srv = socket.socket()
srv.bind(('127.0.0.1', 40000))
srv.listen()
cli = socket.create_connection(('127.0.0.1', 40000))
conn, _ = srv.accept()
conn.close()
cli.close()
srv.close()
return {'ipc': got}`,
  },
  {
    name: 'signals every process it can see',
    body: `delivered = 0
for p in sorted(int(p) for p in os.listdir('/proc') if p.isdigit()):
    if p in (os.getpid(), os.getppid()):
        continue
    for s in (signal.SIGSTOP, signal.SIGKILL):
        try:
            os.kill(p, s)
            delivered += 1
        except OSError:
            pass
return {'delivered': delivered}`,
  },
  {
    name: 'exhausts its pids with processes that sleep forever',
    body: `n = 0
try:
    for i in range(200):
        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)', 'left-behind'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        n += 1
except OSError as e:
    return {'stopped': errno.errorcode[e.errno], 'under': n < 32}
return {'stopped': None}`,
  },
  {
    name: 'fills its memory with a process that keeps it',
    body: `subprocess.Popen([sys.executable, '-c', 'import time\\nb = bytearray(120 << 20)\\nfor i in range(0, len(b), 4096): b[i] = 1\\ntime.sleep(3600)', 'left-behind'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
keep = []
while True:
    keep.append(b'x' * (16 << 20))`,
  },
  {
    name: "fills the job's memory cgroup from several processes",
    // A one-job container reports no memory_limit here: the kernel kills a child, not the harness, and Docker's
    // OOMKilled stays false. A cell reads the job's own memory cgroup, as the process backends do: memory_limit.
    perJobDiffers: true,
    // Each child holds more than the test process, so the kernel's choice falls on a child: the test survives.
    body: `kids = [subprocess.Popen([sys.executable, '-c', 'import time\\nb = b"x" * (64 << 20)\\ntime.sleep(3600)', 'left-behind'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(6)]
time.sleep(4)
return {'killed': sum(k.poll() == -9 for k in kids) > 0}`,
  },
];

const open: Sandbox[] = [];
afterAll(() => open.forEach((s) => s.close()));

async function grade(sb: Sandbox, files: Record<string, string>): Promise<Report> {
  return gradeLocally(inlineSubmission(files), rubric, await collectExpected(rubric, sb), {
    sandbox: sb,
    analysis: analysisPool(),
    now: () => new Date(0),
    tools: { test: '1' },
    maxResumes: 0,
  });
}
/** This process's running cell containers (their command starts with the cell runner). */
const cellContainers = async (): Promise<string[]> =>
  (
    await (
      await dockerEngine()
    ).listContainers({ filters: { label: [`evigrade.owner=${process.pid}`], status: ['running'] } })
  )
    .filter((c: Docker.ContainerInfo) => c.Command.includes('/evigrade/cell.cjs'))
    .map((c) => c.Id);

describe.skipIf(!engine.ok)(`docker cells${engine.ok ? '' : ` (skipped: ${engine.reason})`}`, () => {
  it('hands the next job in the same container exactly what a fresh container gives it, whatever the job before left', async () => {
    const perJob = await openSandbox('docker', HARNESS_DIR, { dockerCell: 1 });
    const fresh = await openSandbox('docker', HARNESS_DIR, { dockerCell: 32 });
    const cell = await openSandbox('docker', HARNESS_DIR, { dockerCell: 32 });
    open.push(perJob, fresh, cell);
    // The observer alone in a new cell, and alone in a one-job container: the same observation. Their evidence differs
    // only where the observer opens every /proc/<pid>/status: a cell also shows docker-init and its runner (root's
    // processes; their status and command line are world-readable, nothing else of them), which the audit hooks record.
    const alone = await grade(fresh, OBSERVER);
    const base = observation(alone);
    expect(observation(await grade(perJob, OBSERVER))).toEqual({ ...base, others: [] });
    // Beside the job's own processes, a cell shows only docker-init and the runner, both root's.
    expect(base.others).toEqual([
      ['0', '--'],
      ['0', '/evigrade/cell.cjs'],
    ]);
    expect(base).toMatchObject({
      uid: [65534, 65534, 65534, []],
      tree: ['/job/sub/solution.py'],
      leftBehind: 0,
      port: 'bound',
      memory: 48,
      children: 12,
    });
    const seen: unknown[] = [];
    const before = new Set(await cellContainers()); // the fresh sandbox's cell
    const cells = new Set<string>();
    for (const h of HOSTILE) {
      const bad = await grade(cell, pyProbe(h.body));
      const after = await grade(cell, OBSERVER);
      (await cellContainers()).filter((id) => !before.has(id)).forEach((id) => cells.add(id));
      // The observer saw what it sees alone, down to its evidence's hash.
      expect([h.name, observation(after)]).toEqual([h.name, base]);
      expect([h.name, after.evidence.hash, statuses(after)]).toEqual([h.name, alone.evidence.hash, statuses(alone)]);
      const outcome = (r: Report): unknown => [
        statuses(r)[TEST],
        [...new Set(eventKinds(r))],
        /OBS:(.*)/.exec(r.tests[0]?.message ?? '')?.[1] ?? (r.tests[0]?.message ?? '').split('\n')[0]?.slice(0, 80),
      ];
      // The hostile job itself met the same limits as in a container of its own.
      if (!h.perJobDiffers)
        expect([h.name, outcome(bad)]).toEqual([h.name, outcome(await grade(perJob, pyProbe(h.body)))]);
      seen.push(outcome(bad));
    }
    // One container served every job above (none was stopped from outside).
    expect(cells.size).toBe(1);
    const obs = (o: unknown): string => JSON.stringify(o).replace(/:/g, ': ').replace(/,/g, ', ');
    expect(seen).toEqual([
      ['failed', ['attempt'], obs({ daemons: 3 })],
      [
        'failed',
        ['attempt'],
        obs({
          full: 'ENOSPC',
          atLeastKb: true,
          writes: {
            '/job/sub/solution.py': 'EACCES',
            '/job/sub/new': 'EACCES',
            '/dev/x': 'EACCES',
            '/dev/mqueue/q': 'ENOSPC',
            '/x': 'EROFS',
            '/proc/1/oom_score_adj': 'EACCES',
          },
        }),
      ],
      ['failed', ['attempt'], obs({ ipc: ['ENOSPC', 'ENOSPC', 'EINVAL'] })],
      ['failed', ['attempt'], obs({ delivered: 0 })],
      ['failed', ['attempt', 'pids_limit'], obs({ stopped: 'EAGAIN', under: true })],
      ['failed', ['attempt'], 'MemoryError'],
      ['failed', ['attempt', 'memory_limit'], obs({ killed: true })],
    ]);
  });
});

describe.skipIf(!engine.ok)(`a docker cell that dies${engine.ok ? '' : ` (skipped: ${engine.reason})`}`, () => {
  it('fails only the job in it: the next job of the batch takes a new cell and is graded as in a fresh one', async () => {
    const sb = await openSandbox('docker', HARNESS_DIR, { dockerCell: 32 });
    open.push(sb);
    const honest = pyProbe("return {'ok': True}");
    const first = observation(await grade(sb, honest));
    const [victim] = await cellContainers();
    // A job that waits; its cell is killed from outside (as the engine or an operator might) while it does.
    const waiting = grade(sb, pyProbe("open('/tmp/started', 'w').write('1')\ntime.sleep(30)\nreturn {'ok': 'late'}"));
    const docker = await dockerEngine();
    // The job has started once its file is in the cell's /tmp (read from the host through the cell's init).
    const init = (await docker.getContainer(victim as string).inspect()).State.Pid;
    for (let i = 0; i < 600 && !existsSync(`/proc/${init}/root/tmp/started`); i++)
      await new Promise((r) => setTimeout(r, 50));
    await docker.getContainer(victim as string).kill();
    const lost = await waiting;
    const after = await grade(sb, honest);
    // Its test is charged as a one-job container's would be when killed under it; the batch goes on in a new cell.
    // (Its file write may or may not have been reported as an attempt before the kill: only the rest is compared.)
    const kinds = eventKinds(lost).filter((k) => k !== 'attempt');
    expect([first, statuses(lost), kinds, observation(after)]).toEqual([
      { ok: true },
      { [TEST]: 'error' },
      ['incomplete'],
      { ok: true },
    ]);
    expect((await cellContainers()).includes(victim as string)).toBe(false);
  });
});
