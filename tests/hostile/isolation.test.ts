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
import { eventKinds, gradeInline, inlineRubric, isolatingBackends, ROOT, statuses } from '../helpers.js';

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

    it('has no network: a server on the host loopback is unreachable, DNS fails', async () => {
      const body = `const net = require('net'); const dns = require('dns').promises;
        const tcp = await new Promise((res) => { const s = net.connect(${port}, '127.0.0.1'); s.on('connect', () => res('connected')); s.on('error', (e) => res(e.code)); setTimeout(() => res('hang'), 2000); });
        const meta = await new Promise((res) => { const s = net.connect(80, '169.254.169.254'); s.on('connect', () => res('connected')); s.on('error', (e) => res(e.code)); setTimeout(() => res('hang'), 2000); });
        const lookup = await dns.lookup('example.com').then(() => 'resolved', (e) => e.code);
        const ifaces = Object.keys(require('os').networkInterfaces());
        return { tcp, meta, lookup, ifaces };`;
      const before = connections;
      const obs = observation(await grade(probe(body))) as Record<string, unknown>;
      expect(connections - before).toBe(0);
      expect(obs.tcp).toMatch(/^(ECONNREFUSED|ENETUNREACH)$/);
      expect(obs.meta).toMatch(/^(ENETUNREACH|EHOSTUNREACH|ECONNREFUSED)$/);
      expect(obs.lookup).toMatch(/^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED)$/);
      expect((obs.ifaces as string[]).filter((i) => i !== 'lo')).toEqual([]);
    });

    it('sees a cleared environment: no HF_TOKEN or any grader variable', async () => {
      const obs = observation(await grade(probe('return Object.keys(process.env).sort();')));
      // bwrap's --chdir sets PWD and Docker sets HOSTNAME; nothing of the grader's environment crosses.
      const own = { bwrap: ['PWD'], unshare: [], docker: ['HOSTNAME'] }[b.id as 'bwrap' | 'unshare' | 'docker'] ?? [];
      expect(obs).toEqual(['FORCE_COLOR', 'HOME', 'LANG', 'NO_COLOR', 'PATH', 'TZ', ...own].sort());
      const procEnv = observation(
        await grade(
          probe(
            `const fs = require('fs'); return fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).map((p) => { try { return fs.readFileSync('/proc/' + p + '/environ', 'utf8'); } catch { return ''; } }).join('').includes('HF_TOKEN');`,
          ),
        ),
      );
      expect(procEnv).toBe(false);
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
      // Docker adds its own /.dockerenv, /etc (hostname, hosts, resolv.conf) and /sys; none holds a host file.
      expect(obs.root).toEqual(
        b.id === 'docker'
          ? ['.dockerenv', 'dev', 'etc', 'evigrade', 'job', 'lib', 'lib64', 'proc', 'sys', 'tmp', 'usr']
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
      const sol = `const { spawn } = require('child_process');
        spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${marker}'], { detached: true, stdio: 'ignore' }).unref();
        module.exports = { probe: () => new Promise(() => { for (;;) {} }) };`;
      const r = await grade({ 'solution.js': sol }, { limits: { timeout_ms: 1500 } });
      expect([statuses(r), eventKinds(r)]).toEqual([{ observe: 'timeout' }, ['timeout']]);
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

    it('stops a memory bomb at the memory limit and says so', async () => {
      const sol = `module.exports = { probe: async () => { const keep = []; for (;;) keep.push(Buffer.alloc(16 * 1024 * 1024, 1)); } };`;
      const r = await grade({ 'solution.js': sol }, { limits: { memory_mb: 128, timeout_ms: 8000 } });
      expect([statuses(r), eventKinds(r)]).toEqual([{ observe: 'error' }, ['memory_limit']]);
      expect(r.tests[0]?.message).toContain('memory limit (128 MB)');
    });

    it('caps the number of processes (fork storm)', async () => {
      const body = `const { spawn } = require('child_process'); let ok = 0, failed = 0;
        for (let i = 0; i < 200; i++) { try { const c = spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 3000)'], { stdio: 'ignore' }); c.on('error', () => {}); if (c.pid) ok++; else failed++; } catch { failed++; } }
        return { started: ok > 0, capped: ok < 32, failed: failed > 0 };`;
      const r = await grade(probe(body), { limits: { pids: 32, timeout_ms: 8000 } });
      expect(observation(r)).toEqual({ started: true, capped: true, failed: true });
      // One submission, one body of evidence: every backend records the refused forks.
      expect(eventKinds(r)).toEqual(['pids_limit']);
    });

    it('has no writable /dev or /dev/shm: a job filling them is stopped at once, /tmp at its cap', async () => {
      const body = `const fs = require('fs'); const chunk = Buffer.alloc(64 * 1024, 1);
        const fill = (dir) => { let bytes = 0; try { for (let i = 0; ; i++) { fs.writeFileSync(dir + '/fill-' + i, chunk); bytes += chunk.length; } } catch (e) { return { code: e.code, bytes }; } };
        const shm = fill('/dev/shm'); const dev = fill('/dev'); const tmp = fill('/tmp');
        return { shm, dev, tmp: { code: tmp.code, capped: tmp.bytes <= 1024 * 1024 } };`;
      const obs = observation(await grade(probe(body), { limits: { tmp_kb: 1024, file_size_kb: 1024 } }));
      // bwrap: /dev is a read-only tmpfs without shm; unshare: root's /dev in the chroot; Docker: root's /dev, IpcMode none.
      const dev = { bwrap: 'EROFS', unshare: 'EACCES', docker: 'EACCES' }[b.id as 'bwrap' | 'unshare' | 'docker'];
      // unshare jobs have no writable directory at all, /tmp included.
      const tmp = b.id === 'unshare' ? { code: 'EACCES', capped: true } : { code: 'ENOSPC', capped: true };
      expect(obs).toEqual({ shm: { code: 'ENOENT', bytes: 0 }, dev: { code: dev, bytes: 0 }, tmp });
    });

    it('caps open files and output bytes', async () => {
      const fdBody = `const fs = require('fs'); let n = 0; try { for (;;) { fs.openSync('/proc/self/status', 'r'); n++; } } catch (e) { return { code: e.code, under: n < 256 }; }`;
      const obs = observation(await grade(probe(fdBody)));
      expect(obs).toEqual({ code: 'EMFILE', under: true });
      const flood = `module.exports = { probe: async () => { const line = 'x'.repeat(1024); for (let i = 0; i < 100000; i++) process.stdout.write(line + '\\n'); await new Promise((r) => setTimeout(r, 2000)); return 1; } };`;
      const r = await grade({ 'solution.js': flood }, { limits: { output_kb: 64 } });
      expect([statuses(r), eventKinds(r)]).toEqual([{ observe: 'error' }, ['output_limit']]);
    });

    it('starts every job clean: files and background processes of a previous job are gone', async () => {
      const jobA = `const fs = require('fs'); const { spawn } = require('child_process');
        let wrote; try { fs.writeFileSync('/tmp/left-behind', 'x'); wrote = true; } catch { wrote = false; }
        spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }).unref();
        return { wrote };`;
      const jobB = `const fs = require('fs'); let seen; try { fs.readFileSync('/tmp/left-behind'); seen = true; } catch { seen = false; }
        const procs = fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).map((p) => { try { return fs.readFileSync('/proc/' + p + '/cmdline', 'utf8'); } catch { return ''; } }).filter((c) => c.includes('setInterval'));
        return { seen, daemons: procs.length };`;
      const first = observation(await grade(probe(jobA))) as { wrote: boolean };
      expect(first.wrote).toBe(b.id !== 'unshare'); // unshare jobs have no writable directory at all
      expect(observation(await grade(probe(jobB)))).toEqual({ seen: false, daemons: 0 });
    });

    it('gives a fork storm or memory bomb no effect on a correct submission graded at the same time', async () => {
      const rubric = inlineRubric(
        { 'x.test.js': "const { f } = require('./solution'); test('f', () => { expect(f()).toBe(7); });" },
        { limits: { pids: 32, memory_mb: 128, timeout_ms: 6000 } },
      );
      const storm =
        "const { spawn } = require('child_process'); for (let i = 0; i < 500; i++) { try { spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }).on('error', () => {}); } catch {} } module.exports = { f: () => { const k = []; for (;;) k.push(Buffer.alloc(1 << 24, 1)); } };";
      const [bad, good] = await Promise.all([
        gradeInline(b.id, rubric, { 'solution.js': storm }),
        gradeInline(b.id, rubric, { 'solution.js': 'module.exports = { f: () => 7 };' }),
      ]);
      expect(statuses(good)).toEqual({ f: 'passed' });
      expect(good.sandbox.violations).toEqual([]);
      expect(statuses(bad).f).not.toBe('passed');
    });
  });
}
