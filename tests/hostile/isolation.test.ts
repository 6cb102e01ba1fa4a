// The process sandbox's claims, one by one, against every backend available here.
// Each probe runs inside a job and reports what it saw through the authenticated
// channel (as the message of a test that always fails), so the assertions below
// compare exact observations.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { eventKinds, flagCodes, gradeInline, inlineRubric, isolatingBackends, ROOT, statuses } from '../helpers.js';

const backends = await isolatingBackends();

const OBSERVE = {
  'observe.test.js': `const { probe } = require('./solution');
test('observe', async () => { throw new Error('OBS:' + JSON.stringify(await probe())); });`,
};
const observation = (r: Report): unknown => {
  const m = /OBS:(.*)/.exec(r.tests[0]?.message ?? '');
  if (!m) throw new Error(`no observation; test was ${r.tests[0]?.status}: ${r.tests[0]?.message}`);
  return JSON.parse(m[1] as string);
};
const probe = (body: string): Record<string, string> => ({
  'solution.js': `module.exports = { probe: async () => { ${body} } };`,
});

// The OS layer, probed from a Python job: a JavaScript job's own process is fenced by Node's permission model before
// the OS sandbox is reached (no child process, no file outside the job), so process, /proc and /dev claims are checked
// where a submission has every system call Python offers.
const PY_OBSERVE = {
  'observe_test.py': `import json
from solution import probe


def test_observe():
    raise AssertionError('OBS:' + json.dumps(probe()))
`,
};
const pyProbe = (body: string): Record<string, string> => ({
  'solution.py': `import errno, os, subprocess, sys, time\n\n\ndef probe():\n${body
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n')}\n`,
});
const PY_TEST = 'observe_test.py::test_observe';

let server: Server;
let port = 0;
let connections = 0;
const secretDir = mkdtempSync(join(tmpdir(), 'evigrade-secret-'));
const secretFile = join(secretDir, 'secret.txt');

beforeAll(async () => {
  writeFileSync(secretFile, 'TOP SECRET', { mode: 0o644 });
  process.env.HF_TOKEN = 'hf_test_secret_token';
  server = createServer((s) => {
    connections++;
    s.end('hello from the host');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => {
  server.close();
  delete process.env.HF_TOKEN;
});

for (const b of backends) {
  describe.skipIf(!b.ok)(`${b.id} backend${b.ok ? '' : ` (skipped: ${b.reason})`}`, () => {
    const grade = (files: Record<string, string>, spec = {}) => gradeInline(b.id, inlineRubric(OBSERVE, spec), files);
    const gradePy = (files: Record<string, string>, limits = {}) =>
      gradeInline(
        b.id,
        inlineRubric(PY_OBSERVE, { language: 'python', limits: { timeout_ms: 20_000, ...limits } }),
        files,
      );

    it('has no network: a server on the host loopback is unreachable, DNS fails', async () => {
      // The OS layer, from a Python job (every socket call Python offers): nothing reaches the host.
      const body = `import socket
def tcp(host, p):
    try:
        socket.create_connection((host, p), timeout=2).close()
        return 'connected'
    except OSError as e:
        return errno.errorcode.get(e.errno, type(e).__name__) if e.errno else type(e).__name__
try:
    socket.getaddrinfo('example.com', 80)
    lookup = 'resolved'
except socket.gaierror as e:
    lookup = {socket.EAI_NONAME: 'ENOTFOUND', socket.EAI_AGAIN: 'EAI_AGAIN'}.get(e.errno, str(e.errno))
ifaces = [n for _, n in socket.if_nameindex()]
return {'tcp': tcp('127.0.0.1', ${port}), 'meta': tcp('169.254.169.254', 80), 'lookup': lookup, 'ifaces': ifaces}`;
      const before = connections;
      const obs = observation(await gradePy(pyProbe(body))) as Record<string, unknown>;
      expect(connections - before).toBe(0);
      expect(obs.tcp).toMatch(/^(ECONNREFUSED|ENETUNREACH)$/);
      expect(obs.meta).toMatch(/^(ENETUNREACH|EHOSTUNREACH|ECONNREFUSED)$/);
      expect(obs.lookup).toMatch(/^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|-[0-9]+)$/);
      expect((obs.ifaces as string[]).filter((i) => i !== 'lo')).toEqual([]);
      // A JavaScript job never reaches the OS for it: the realm's net and dns refuse (and the attempt is evidence).
      const js = `const net = require('net'); const dns = require('dns').promises;
        const tcp = (() => { try { net.connect(${port}, '127.0.0.1'); return 'called'; } catch (e) { return e.code; } })();
        const lookup = await (async () => { try { await dns.lookup('example.com'); return 'resolved'; } catch (e) { return e.code; } })();
        return { tcp, lookup };`;
      const r = await grade(probe(js));
      expect([observation(r), connections - before, flagCodes(r)]).toEqual([
        { tcp: 'ERR_ACCESS_DENIED', lookup: 'ERR_ACCESS_DENIED' },
        0,
        ['policy.net', 'sandbox.attempt.network'],
      ]);
    });

    it('sees a cleared environment: no HF_TOKEN or any grader variable', async () => {
      const obs = observation(await grade(probe('return Object.keys(process.env).sort();')));
      // bwrap's --chdir sets PWD and Docker sets HOSTNAME; nothing of the grader's environment crosses.
      const own = { bwrap: ['PWD'], unshare: [], docker: ['HOSTNAME'] }[b.id as 'bwrap' | 'unshare' | 'docker'] ?? [];
      expect(obs).toEqual(['FORCE_COLOR', 'HOME', 'LANG', 'NO_COLOR', 'PATH', 'TZ', ...own].sort());
      // No process of the job (each as the OS shows it to a Python job) has it in its environment either.
      const body = `seen = ''
for p in os.listdir('/proc'):
    try:
        seen += open('/proc/' + p + '/environ', 'rb').read().decode('latin1') if p.isdigit() else ''
    except OSError:
        pass
return {'hf': 'HF_TOKEN' in seen, 'looked': len(seen) > 0}`;
      expect(observation(await gradePy(pyProbe(body)))).toEqual({ hf: false, looked: true });
    });

    it("cannot read host files, the grader's files, the hidden tests or another submission", async () => {
      // Docker provides its own /etc/hostname (the container id); the host's is checked by content below.
      const targets = [
        secretFile,
        join(ROOT, 'package.json'),
        join(ROOT, 'rubrics', 'leap', 'tests', 'leap.spec.js'),
        '/etc/passwd',
        '/root',
        '/var/run/docker.sock',
        '/sys/fs/cgroup',
        ...(b.id === 'docker' ? [] : ['../../../etc/hostname']),
      ];
      const body = `const fs = require('fs'); const out = {};
        for (const p of ${JSON.stringify(targets)}) { try { fs.readFileSync(p); out[p] = 'READ'; } catch (e) { out[p] = e.code; } }
        out.root = fs.readdirSync('/').sort(); out.sub = fs.readdirSync('.').sort();
        try { out.hostname = fs.readFileSync('/etc/hostname', 'utf8').trim(); } catch { out.hostname = null; } return out;`;
      const obs = observation(await grade({ ...probe(body), 'other.js': '// mine' })) as Record<string, unknown>;
      for (const t of targets) expect([t, obs[t]]).not.toEqual([t, 'READ']);
      expect(obs.hostname).not.toBe(hostname());
      // Docker adds its own /.dockerenv, /etc (hostname, hosts, resolv.conf) and /sys, and a cell (Docker's default) the
      // engine's docker-init at /sbin/docker-init (read-only); none holds a host secret.
      expect(obs.root).toEqual(
        b.id === 'docker'
          ? ['.dockerenv', 'dev', 'etc', 'evigrade', 'job', 'lib', 'lib64', 'proc', 'sbin', 'sys', 'tmp', 'usr']
          : ['dev', 'evigrade', 'job', 'lib', 'lib64', 'proc', 'tmp', 'usr'],
      );
      expect(obs.sub).toEqual(['other.js', 'solution.js']);
    });

    it('runs unprivileged: not uid 0, no capabilities, cannot write its own files', async () => {
      const body = `const fs = require('fs'); const st = fs.readFileSync('/proc/self/status', 'utf8');
        const cap = /CapEff:\\s*(\\w+)/.exec(st)[1]; let write; try { fs.writeFileSync('./solution.js', 'x'); write = 'WROTE'; } catch (e) { write = e.code; }
        let chmod; try { fs.chmodSync('./solution.js', 0o777); chmod = 'CHMOD'; } catch (e) { chmod = e.code; }
        const ids = /Uid:\\s*(.*)/.exec(st)[1].trim().split(/\\s+/).concat(/Gid:\\s*(.*)/.exec(st)[1].trim().split(/\\s+/));
        return { uid: process.getuid(), capEff: cap, capPrm: /CapPrm:\\s*(\\w+)/.exec(st)[1], ids: [...new Set(ids)].length, write, chmod };`;
      const obs = observation(await grade(probe(body))) as Record<string, unknown>;
      expect(obs.uid).not.toBe(0);
      // Docker's harness starts as root to write the files, then drops: real, effective, saved and fs ids alike, no capability kept.
      expect([obs.capPrm, obs.ids]).toEqual(['0000000000000000', 1]);
      // bwrap mounts the submission read-only; under unshare it is root-owned and the job is not root.
      const denied = b.id === 'bwrap' ? { write: 'EROFS', chmod: 'EROFS' } : { write: 'EACCES', chmod: 'EPERM' };
      expect(obs).toEqual({ uid: obs.uid, capEff: '0000000000000000', capPrm: '0000000000000000', ids: 1, ...denied });
    });

    it('kills the whole process tree on timeout, daemons included', async () => {
      const marker = `evigrade-daemon-${b.id}-${Date.now()}`;
      const body = `subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)', '${marker}'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while True:
    pass`;
      const r = await gradePy(pyProbe(body), { timeout_ms: 3000, test_timeout_ms: 2000 });
      expect(statuses(r)).toEqual({ [PY_TEST]: 'timeout' });
      await new Promise((res) => setTimeout(res, 300));
      const alive = readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
          } catch {
            return false;
          }
        });
      expect(alive).toEqual([]);
    });

    it("fences a JavaScript job's own process: not its memory, no file outside the job, no process, no symlink", async () => {
      // /proc/self/mem is open to a process for itself, read-write: the channel key and the harness's memory.
      const paths = [
        '/proc/self/mem',
        '/proc/self/maps',
        '/proc/self/task',
        '/proc/1/mem',
        '/proc',
        '/usr/bin/node',
        '/evigrade/../etc',
      ];
      const body = `const fs = require('fs'); const out = {};
        const code = (f) => { try { f(); return 'OK'; } catch (e) { return e.code; } };
        for (const p of ${JSON.stringify(paths)}) out[p] = code(() => fs.openSync(p, 'r'));
        out.memRw = code(() => fs.openSync('/proc/self/mem', 'r+'));
        out.memAsync = await fs.promises.readFile('/proc/self/maps').then(() => 'OK', (e) => e.code);
        out.memStream = await new Promise((res) => fs.createReadStream('/proc/self/mem').on('error', (e) => res(e.code)).on('open', () => res('OK')));
        out.memRequire = code(() => require('/proc/self/maps'));
        out.memUrl = code(() => fs.openSync(new URL('file:///proc/self/mem'), 'r'));
        out.symlink = code(() => fs.symlinkSync('/proc/self/mem', '/tmp/m'));
        out.spawn = code(() => require('child_process').spawnSync(process.execPath, ['-e', '0']));
        out.own = code(() => fs.readFileSync('./solution.js'));
        // What it wrote to /tmp it reads back (bwrap and Docker; unshare jobs have no writable place at all).
        out.tmp = code(() => { fs.writeFileSync('/tmp/round-trip', 'x'); return fs.readFileSync('/tmp/round-trip', 'utf8') === 'x' || 'differs'; });
        out.status = code(() => fs.readFileSync('/proc/self/status'));
        return out;`;
      const obs = observation(await grade(probe(body)));
      const denied = 'ERR_ACCESS_DENIED';
      expect(obs).toEqual({
        // Evidence numbers the pids a run drew (docs/grading.md); /proc/1 (the namespace's init) is alike in every run.
        ...Object.fromEntries(paths.map((p) => [p, denied])),
        memRw: denied,
        memAsync: denied,
        memStream: denied,
        memRequire: 'MODULE_NOT_FOUND', // the realm loads only the submission's own files
        memUrl: denied,
        symlink: denied,
        spawn: denied,
        own: 'OK',
        status: 'OK',
        tmp: b.id === 'unshare' ? 'EACCES' : 'OK',
      });
    });

    it('stops a memory bomb at the memory limit and says so', async () => {
      const sol = `module.exports = { probe: async () => { const keep = []; for (;;) keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); } };`;
      // The realm's Buffer fills in JavaScript (seconds of CPU for 128 MB on a loaded machine): the test's own limit
      // is as generous as the job's, so the memory limit is what stops it on any machine, never its time.
      const r = await grade(
        { 'solution.js': sol },
        { limits: { memory_mb: 128, timeout_ms: 20_000, test_timeout_ms: 20_000 } },
      );
      expect([statuses(r), eventKinds(r)]).toEqual([{ observe: 'error' }, ['memory_limit']]);
      expect(r.tests[0]?.message).toContain('memory limit (128 MB)');
    });

    it('caps the number of processes (fork storm)', async () => {
      const body = `ok = failed = 0
kids = []
for i in range(200):
    try:
        kids.append(subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3)'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        ok += 1
    except OSError:
        failed += 1
return {'started': ok > 0, 'capped': ok < 32, 'failed': failed > 0}`;
      const r = await gradePy(pyProbe(body), { pids: 32 });
      expect(observation(r)).toEqual({ started: true, capped: true, failed: true });
      // One submission, one body of evidence: every backend records the refused forks, and the spawns it tried.
      expect([eventKinds(r), flagCodes(r)]).toEqual([
        ['attempt', 'pids_limit'],
        ['policy.child_process', 'sandbox.attempt.spawn'],
      ]);
    });

    it('has no writable /dev or /dev/shm: a job filling them is stopped at once, /tmp at its cap', async () => {
      const body = `chunk = b'x' * 65536
def fill(d):
    n = 0
    try:
        for i in range(100000):
            with open(d + '/fill-' + str(i), 'wb') as f:
                f.write(chunk)
            n += len(chunk)
    except OSError as e:
        return {'code': errno.errorcode.get(e.errno, str(e.errno)), 'bytes': n}
tmp = fill('/tmp')
return {'shm': fill('/dev/shm'), 'dev': fill('/dev'), 'tmp': {'code': tmp['code'], 'capped': tmp['bytes'] <= 1024 * 1024}}`;
      const obs = observation(await gradePy(pyProbe(body), { tmp_kb: 1024, file_size_kb: 1024 }));
      // bwrap: /dev is a read-only tmpfs without shm; unshare: root's /dev in the chroot; Docker: root's /dev, IpcMode none.
      const dev = { bwrap: 'EROFS', unshare: 'EACCES', docker: 'EACCES' }[b.id as 'bwrap' | 'unshare' | 'docker'];
      // unshare jobs have no writable directory at all, /tmp included.
      const tmp = b.id === 'unshare' ? { code: 'EACCES', capped: true } : { code: 'ENOSPC', capped: true };
      expect(obs).toEqual({ shm: { code: 'ENOENT', bytes: 0 }, dev: { code: dev, bytes: 0 }, tmp });
    });

    it('caps open files and output bytes', async () => {
      const fdBody = `const fs = require('fs'); let n = 0; try { for (;;) { fs.openSync('./solution.js', 'r'); n++; } } catch (e) { return { code: e.code, under: n < 256 }; }`;
      const obs = observation(await grade(probe(fdBody)));
      expect(obs).toEqual({ code: 'EMFILE', under: true });
      const flood = `module.exports = { probe: async () => { const line = 'x'.repeat(1024); for (let i = 0; i < 100000; i++) process.stdout.write(line + '\\n'); await new Promise((r) => setTimeout(r, 2000)); return 1; } };`;
      const r = await grade({ 'solution.js': flood }, { limits: { output_kb: 64 } });
      expect([statuses(r), eventKinds(r)]).toEqual([{ observe: 'error' }, ['output_limit']]);
    });

    it('starts every job clean: files and background processes of a previous job are gone', async () => {
      const jobA = `try:
    open('/tmp/left-behind', 'w').write('x')
    wrote = True
except OSError:
    wrote = False
subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)', 'left-behind-daemon'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
return {'wrote': wrote}`;
      const jobB = `seen = os.path.exists('/tmp/left-behind')
daemons = 0
for p in os.listdir('/proc'):
    try:
        daemons += p.isdigit() and b'left-behind-daemon' in open('/proc/' + p + '/cmdline', 'rb').read()
    except OSError:
        pass
return {'seen': seen, 'daemons': daemons}`;
      const first = observation(await gradePy(pyProbe(jobA))) as { wrote: boolean };
      expect(first.wrote).toBe(b.id !== 'unshare'); // unshare jobs have no writable directory at all
      expect(observation(await gradePy(pyProbe(jobB)))).toEqual({ seen: false, daemons: 0 });
    });

    it('gives a fork storm or memory bomb no effect on a correct submission graded at the same time', async () => {
      const rubric = inlineRubric(
        { 'x_test.py': 'from solution import f\n\n\ndef test_f():\n    assert f() == 7\n' },
        { language: 'python', limits: { pids: 32, memory_mb: 160, timeout_ms: 15_000, test_timeout_ms: 4000 } },
      );
      const storm = `import subprocess, sys
for i in range(500):
    try:
        subprocess.Popen([sys.executable, '-c', 'while True: pass'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass


def f():
    keep = []
    while True:
        keep.append(bytearray(1 << 24))
`;
      const [bad, good] = await Promise.all([
        gradeInline(b.id, rubric, { 'solution.py': storm }),
        gradeInline(b.id, rubric, { 'solution.py': 'def f():\n    return 7\n' }),
      ]);
      expect(statuses(good)).toEqual({ 'x_test.py::test_f': 'passed' });
      expect(good.sandbox.violations).toEqual([]);
      expect(statuses(bad)['x_test.py::test_f']).not.toBe('passed');
    });
  });
}
