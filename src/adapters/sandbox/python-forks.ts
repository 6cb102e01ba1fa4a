import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { EvigradeError } from '../../domain/errors.js';
import type { Limits } from '../../domain/rubric.js';
import { processTree, readOr } from './proc-tree.js';
import { SANDBOX_HOLDER, SANDBOX_PYTHON } from './python-rootfs.js';
import { JOB_ENV } from './types.js';

// The grader's side of the Python fork server (sandbox/python/forkserver.py, docs/python-harness.md "Fork server"):
// templates that have imported pytest and the harness, one per job in flight, each forking one child per job into
// that job's own bubblewrap sandbox. A template is used for one job at a time; one that dies, says anything outside
// the protocol, or is closed is killed and forgotten — never handed another job — and the next job starts a new one.

/** The fork server's program inside the Python root. */
export const FORK_SERVER = [SANDBOX_PYTHON, '-I', '-B', '/evigrade/py/forkserver.py'];
/**
 * What keeps a job's bwrap sandbox open for the forked child to join: the Python root's execute-only shell
 * (python-rootfs.ts SANDBOX_HOLDER: non-dumpable, so the job's processes cannot trace it or read it). It keeps the job's
 * stdin, stdout, stderr and frames descriptor on 6–9 and its root on 5 (forkserver.py takes them from there), says one
 * byte on fd 4 once the sandbox is set up, and waits for the grader to close fd 4 — reading it as its stdin, so no
 * redirection of the wait ever moves a descriptor the template may be taking at that moment. It runs nothing of the
 * job's and reads nothing of it.
 */
const HOLD = 'exec 5</ 6<&0 7>&1 8>&2 9>&3 0<&4 || exit 70; printf r >&4 || exit 70; while read -r _; do :; done';
export const HOLDER_PROGRAM = [SANDBOX_HOLDER, '-c', HOLD];
/** The holder's name in /proc/<pid>/comm (the file it runs). */
const HOLDER_COMM = SANDBOX_HOLDER.slice(SANDBOX_HOLDER.lastIndexOf('/') + 1);

/** How the job's process ended (from the template, which reaps it). */
export interface ForkExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ForkedJob {
  /** Host pid of the job's tree root (the joining process; the job's test process is its child). */
  readonly pid: number;
  readonly exit: Promise<ForkExit>;
}

/** Forks the job's process into the sandbox whose holder (HOLDER_PROGRAM) has this host pid. */
export type Join = (holder: number) => Promise<ForkedJob>;

export interface PythonForks {
  /**
   * Whether templates start on this host (the first one is started and kept for the first job). When one cannot
   * (no privilege for bwrap without a user namespace, say), every job starts a fresh interpreter, as without the flag.
   */
  usable(): Promise<boolean>;
  /** Forks a job into the sandbox whose holder has host pid `holder`. */
  fork(holder: number, limits: Limits): Promise<ForkedJob>;
  close(): void;
}

interface Template {
  readonly proc: ChildProcess;
  /** The next line the template says, or null once it is gone. */
  next(): Promise<string | null>;
  dead: boolean;
}

const SIGNALS: Record<number, NodeJS.Signals> = { 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ' };

/** A wait status as waitpid(2) gives it. */
export function decodeStatus(status: number): ForkExit {
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, signal: null };
  return { code: null, signal: SIGNALS[sig] ?? 'SIGKILL' };
}

// The template's interpreter starts in a job's environment, as a job's test process or submission process would (without
// HOME it imports `pwd` at start, without LANG it coerces the C locale: spare.py records what a fresh one has).
const TEMPLATE_ENV = Object.entries(JOB_ENV).flatMap(([k, v]) => ['--setenv', k, v]);

function startTemplate(rootfs: string): Template {
  // The template's own sandbox: bwrap without a user namespace (the template keeps the grader's uid 0, so it may join
  // the user namespaces root creates for jobs) and without any capability; the Python root read-only as its root, no
  // network, its own ipc and uts; the host's pid namespace, since a pid namespace can only be joined from an ancestor.
  // CAP_SETGID and CAP_SETPCAP alone are kept: the template clears its supplementary groups, then drops both from every
  // set, bounding set included, and checks none is left.
  const proc = spawn(
    'bwrap',
    ['--unshare-net', '--unshare-ipc', '--unshare-uts', '--cap-drop', 'ALL', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP', '--die-with-parent', '--new-session', '--clearenv', ...TEMPLATE_ENV, '--ro-bind', rootfs, '/', '--chdir', '/', '--', ...FORK_SERVER],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } },
  );
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  const t: Template = {
    proc,
    dead: false,
    next: () => (lines.length ? Promise.resolve(lines.shift() as string) : t.dead ? Promise.resolve(null) : new Promise((r) => waiting.push(r))),
  };
  const rl = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  const gone = (): void => {
    t.dead = true;
    for (const w of waiting.splice(0)) w(null);
  };
  proc.on('exit', gone);
  proc.on('error', gone);
  proc.stderr?.resume(); // its tracebacks, if any, are not evidence about a student
  proc.stdin?.on('error', () => undefined);
  return t;
}

function kill(t: Template): void {
  t.dead = true;
  try {
    t.proc.kill('SIGKILL');
  } catch {
    // already gone
  }
}

const failure = (why: string): EvigradeError => new EvigradeError('SANDBOX_FAILED', `the Python fork server ${why}`);

/** One job on one template: null when it did not fork (the template is then not to be used again). */
async function forkOn(t: Template, holder: number, limits: Limits, done: (t: Template) => void = () => undefined): Promise<ForkedJob | null> {
  const request = { holder, limits: { nofile: limits.open_files, fsize: limits.file_size_kb * 1024 } };
  t.proc.stdin?.write(`${JSON.stringify(request)}\n`);
  const forked = /^forked (\d+)$/.exec((await t.next()) ?? '');
  if (!forked) return null;
  const exit = t.next().then((line) => {
    const m = /^exit (\d+)$/.exec(line ?? '');
    if (!m) {
      kill(t);
      return { code: null, signal: 'SIGKILL' as const };
    }
    done(t);
    return decodeStatus(Number(m[1]));
  });
  return { pid: Number(forked[1]), exit };
}

export function createPythonForks(rootfs: () => Promise<string>): PythonForks {
  const idle: Template[] = [];
  const all = new Set<Template>();
  let closed = false;

  const acquire = async (): Promise<Template> => {
    for (let t = idle.pop(); t; t = idle.pop()) if (!t.dead) return t;
    const t = startTemplate(await rootfs());
    all.add(t);
    t.proc.on('exit', () => all.delete(t));
    if ((await t.next()) !== 'ready') {
      kill(t);
      throw failure('did not start');
    }
    return t;
  };

  let usable: Promise<boolean> | null = null;
  return {
    usable() {
      // The holder is non-dumpable only because it runs a file it may not read, and only while fs.suid_dumpable is
      // not 1 ("debug": every process dumpable). On such a host no template is started: jobs start afresh.
      if (readOr('/proc/sys/fs/suid_dumpable', '0').trim() === '1') return Promise.resolve(false);
      usable ??= acquire().then(
        (t) => {
          idle.push(t);
          return true;
        },
        () => false,
      );
      return usable;
    },
    async fork(holder, limits) {
      // A template that died while idle fails before it forks anything: the job goes to a new one (once).
      for (let attempt = 0; ; attempt++) {
        if (closed) throw failure('is closed');
        const t = await acquire();
        const job = await forkOn(t, holder, limits, (free) => {
          if (!closed && !free.dead) idle.push(free);
        });
        if (job) return job;
        kill(t);
        if (attempt > 0) throw failure('did not fork the job');
      }
    },
    close() {
      closed = true;
      for (const t of all) kill(t);
      idle.length = 0;
    },
  };
}

/** Once the holder says the sandbox is set up (a byte on fd 4), the job is forked into it. */
export function joinWhenHeld(child: ChildProcess, join: Join): Promise<ForkedJob> {
  return new Promise<number>((resolve, reject) => {
    const held = child.stdio[4] as Readable;
    held.once('data', () => {
      void processTree(child.pid as number).then((pids) => {
        const holder = pids.find((p) => readComm(p) === HOLDER_COMM);
        if (holder === undefined) reject(new EvigradeError('SANDBOX_FAILED', 'the Python fork server found no holder in the sandbox'));
        else resolve(holder);
      }, reject);
    });
    held.once('error', reject);
    held.once('end', () => reject(new EvigradeError('SANDBOX_FAILED', 'the sandbox ended before the job was forked into it')));
  }).then(join);
}

const readComm = (pid: number): string => readOr(`/proc/${pid}/comm`, '').trim();
