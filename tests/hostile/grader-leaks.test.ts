// Leaks through the grader itself rather than through the sandbox (issue 12): a TypeScript submission
// asking the host-side type checker for host files, end to end through POST /grade; job uids shared by
// two grader processes on one host.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { ReportSchema } from '../../src/domain/report.js';
import { sweepStaleCgroups } from '../../src/adapters/sandbox/cgroup.js';
import { processTree } from '../../src/adapters/sandbox/proc-tree.js';
import { availability } from '../../src/adapters/sandbox/registry.js';
import { JOB_UIDS, leaseJobUid, uidsInUse } from '../../src/adapters/sandbox/uid-lease.js';
import { batchApp, ROOT, rubricService } from '../helpers.js';

const KEY = 'test-key-0123456789abcdef';
const secrets = mkdtempSync(join(tmpdir(), 'tc-leak-'));
const SECRET_JSON = join(secrets, 'grader-secret.json');
const SECRET_DTS = join(secrets, 'grader-secret.d.ts');
afterAll(() => rmSync(secrets, { recursive: true, force: true }));

describe('type checking over POST /grade', () => {
  let service: Awaited<ReturnType<typeof rubricService>>;
  beforeAll(async () => {
    writeFileSync(SECRET_JSON, JSON.stringify({ hf_token_field: 'hf_planted_value_123' }));
    writeFileSync(SECRET_DTS, 'declare const PLANTED_GLOBAL: { planted_key: "planted-literal" };\n');
    const rubric = await loadRubric(join(ROOT, 'rubrics', 'temperature', 'rubric.yaml'));
    service = await rubricService(rubric, { maxResumes: 0, concurrency: 1 });
  });

  it("reports host files as not found and nothing of them: the grader's package.json, a planted secret, /etc/passwd, a triple-slash reference", async () => {
    const { a: app } = await batchApp(service, KEY);
    const reference = readFileSync(join(ROOT, 'rubrics', 'temperature', 'reference', 'temperature.ts'), 'utf8');
    // Type-only uses: erased before the code runs, so the hidden tests still pass and only type checking sees them.
    const probes =
      `/// <reference path="${SECRET_DTS}" />\n` +
      `export const pkg: number = null as unknown as typeof import('${join(ROOT, 'package.json')}');\n` +
      `export const secret: number = null as unknown as typeof import('../../../..${SECRET_JSON}');\n` +
      "export const passwd: number = null as unknown as typeof import('/etc/passwd');\n" +
      'export type Planted = typeof PLANTED_GLOBAL;\n';
    const res = await app.inject({
      method: 'POST',
      url: '/grade',
      headers: { authorization: `Bearer ${KEY}` },
      payload: { rubric: 'temperature', id: 'mallory', files: { 'temperature.ts': probes + reference } },
    });
    expect(res.statusCode).toBe(200);
    const report = ReportSchema.parse(res.json());
    expect(report.tests.every((t) => t.status === 'passed')).toBe(true);
    const typeErrors = report.evidence.items
      .filter((i) => i.kind === 'lint' && i.rule.startsWith('typescript/'))
      .map((i) => (i.kind === 'lint' ? [i.rule, i.line, i.message] : null));
    // The triple-slash reference is a comment: silenced in the analysis view, it reads nothing at all.
    expect(typeErrors).toEqual([
      [
        'typescript/TS2307',
        2,
        `Cannot find module '${join(ROOT, 'package.json')}' or its corresponding type declarations.`,
      ],
      [
        'typescript/TS2307',
        3,
        `Cannot find module '../../../..${SECRET_JSON}' or its corresponding type declarations.`,
      ],
      ['typescript/TS2307', 4, "Cannot find module '/etc/passwd' or its corresponding type declarations."],
      ['typescript/TS2304', 5, "Cannot find name 'PLANTED_GLOBAL'."],
    ]);
    expect(res.body).not.toMatch(
      /hf_token_field|hf_planted_value|planted_key|planted-literal|devDependencies|"scripts"|root:x:0/,
    );
    await app.close();
  });
});

const unshareOk = await availability('unshare');

/** Polls until `probe` yields a value (the thing waited for is an event outside this process). */
async function waitFor<T>(probe: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const uidOf = async (pid: number): Promise<number | null> => {
  const m = /^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''));
  return m ? Number(m[1]) : null;
};
/** Jobs under a grader that reached their "hold" test, with the uid they run as, seen from the host. */
async function jobProcs(grader: number): Promise<{ pid: number; uid: number }[]> {
  const out = [];
  for (const pid of await processTree(grader)) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const held = (await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')))).some((t) =>
      t.endsWith('/job/sub/hold.marker'),
    );
    const uid = await uidOf(pid);
    if (held && uid !== null && uid >= JOB_UIDS.first && uid < JOB_UIDS.first + JOB_UIDS.count) out.push({ pid, uid });
  }
  return out;
}
const killQuietly = (pid: number): void => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
/** Uids whose lock (an abstract unix socket) is bound anywhere on the host now. */
const heldLocks = async (): Promise<Set<number>> =>
  new Set(
    [...(await readFile('/proc/net/unix', 'utf8')).matchAll(/@evigrade-job-uid-(\d+)/g)].map((m) => Number(m[1])),
  );

describe.skipIf(!unshareOk.ok)(
  `unshare job uids across grader processes${unshareOk.ok ? '' : ` (skipped: ${unshareOk.reason})`}`,
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'evigrade-uids-'));
    const children = new Set<number>();
    afterAll(async () => {
      // After a failure: no grader of ours, and no job holding a marker under our TMPDIR, outlives the file.
      for (const pid of children) killQuietly(pid);
      for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p)).map(Number)) {
        const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
        if (
          (await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')))).some((t) =>
            t.startsWith(`${tmp}/`),
          )
        )
          killQuietly(pid);
      }
      await sweepStaleCgroups().catch(() => 0);
      rmSync(tmp, { recursive: true, force: true });
    });
    const grader = (jobs: number) => {
      const child = spawn(process.execPath, [join(ROOT, 'tests', 'fakes', 'uid-grader.mjs'), String(jobs)], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines: string[] = [];
      let err = '';
      let buf = '';
      let onReady: () => void = () => undefined;
      const ready = new Promise<void>((r) => (onReady = r));
      child.stdout.on('data', (b: Buffer) => {
        buf += b.toString('utf8');
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line === 'ready') onReady();
          else lines.push(line);
        }
      });
      child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      children.add(child.pid as number);
      void exited.then(() => children.delete(child.pid as number));
      /** `p`, or a clear error if the grader ends first. */
      const alive = <T>(p: Promise<T>): Promise<T> =>
        Promise.race([
          p,
          exited.then((code): never => {
            throw new Error(`grader exited (${code}) early: ${err}`);
          }),
        ]);
      return { pid: child.pid as number, ready: alive(ready), alive, exited, lines };
    };

    it('gives concurrent jobs of two graders distinct uids, each held by a lock that is gone when the graders end', async () => {
      const [a, b] = [grader(3), grader(3)];
      await Promise.all([a.ready, b.ready]);
      // Six jobs blocked in "hold" at once, seen from outside: as many different uids, each with its lock held.
      const seen = await a.alive(
        b.alive(
          waitFor(async () => {
            const procs = [...(await jobProcs(a.pid)), ...(await jobProcs(b.pid))];
            return procs.length >= 6 ? procs : null;
          }),
        ),
      );
      const uids = seen.map((p) => p.uid).sort();
      expect([seen.length, new Set(uids).size]).toEqual([6, 6]);
      const held = await heldLocks();
      expect(uids.filter((u) => !held.has(u))).toEqual([]);
      for (const p of seen) process.kill(p.pid, 'SIGKILL');
      expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
      // What the jobs said about themselves agrees with what the host saw.
      const reports = [...a.lines, ...b.lines].map((l) => JSON.parse(l) as [string, string, string][]);
      expect(reports.map((r) => r.map(([name, status]) => [name, status]))).toEqual(
        Array(6).fill([
          ['uid', 'failed'],
          ['hold', 'error'],
        ]),
      );
      expect(reports.map((r) => Number(/UID:(\d+)/.exec(r[0]?.[2] ?? '')?.[1])).sort()).toEqual(uids);
      const after = await heldLocks();
      expect(uids.filter((u) => after.has(u))).toEqual([]);
    });

    it('frees the locks of a grader killed by SIGKILL, and still never hands out a uid its orphaned job runs as', async () => {
      const c = grader(1);
      await c.ready;
      const [job] = await c.alive(
        waitFor(async () => {
          const procs = await jobProcs(c.pid);
          return procs.length > 0 ? procs : null;
        }),
      );
      const { pid, uid } = job as { pid: number; uid: number };
      expect((await heldLocks()).has(uid)).toBe(true);
      process.kill(c.pid, 'SIGKILL');
      await c.exited;
      // The kernel closed the dead grader's socket: no lock is left behind.
      expect((await heldLocks()).has(uid)).toBe(false);
      // Its job lives on (until a sandbox opening sweeps the dead grader's cgroups): the uid is still in use.
      expect([await uidOf(pid), uidsInUse().has(uid)]).toEqual([uid, true]);
      await expect(leaseJobUid({ first: uid, count: 1 })).rejects.toThrow(`no free job uid in ${uid}..${uid}`);
      process.kill(pid, 'SIGKILL');
      await waitFor(async () => ((await uidOf(pid)) === null ? true : null));
      const lease = await leaseJobUid({ first: uid, count: 1 });
      expect([lease.uid, (await heldLocks()).has(uid)]).toEqual([uid, true]);
      await lease.release();
      expect((await heldLocks()).has(uid)).toBe(false);
    });
  },
);
