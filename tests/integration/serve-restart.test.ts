// `evigrade serve` as a real process: a batch survives the server being killed mid-way.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/domain/report.js';
import { ROOT } from '../helpers.js';

const KEY = 'restart-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const live: ChildProcess[] = [];
afterAll(() => {
  for (const c of live) c.kill('SIGKILL');
});

/** Starts the server and resolves with its base URL once it logs that it listens. */
function serve(data: string, rubrics: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'evigrade.js'),
      'serve',
      '--port',
      '0',
      '--rubrics',
      rubrics,
      '--data',
      data,
      '--concurrency',
      '1',
      '--no-llm',
    ],
    {
      env: { ...process.env, EVIGRADE_API_KEYS: KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  live.push(proc);
  return new Promise((resolve, reject) => {
    let log = '';
    proc.stderr?.on('data', (c: Buffer) => {
      log += c.toString();
      const m = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, proc });
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}: ${log.slice(-2000)}`)));
  });
}

describe('serve restart', () => {
  it('a batch whose server is killed mid-way completes after a restart, every report present once', async () => {
    const data = mkdtempSync(join(tmpdir(), 'evigrade-serve-'));
    const rubrics = join(ROOT, 'rubrics');
    const first = await serve(data, rubrics);
    const slow = 'const t = Date.now(); while (Date.now() - t < 600); export const isLeap = (y) => y % 4 === 0;\n';
    const submissions = Array.from({ length: 6 }, (_, i) => ({
      id: `s${i}`,
      files: { 'leap.js': `// ${i}\n${slow}` },
    }));
    const res = await fetch(`${first.url}/batches`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ rubric: 'leap', submissions }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const reports = join(data, 'batches', id, 'reports');
    while (!existsSync(reports) || readdirSync(reports).filter((n) => n.endsWith('.json')).length < 1)
      await new Promise((r) => setTimeout(r, 50));
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    const before = readdirSync(reports).filter((n) => n.endsWith('.json'));
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(6);
    const mtimes = Object.fromEntries(before.map((n) => [n, statSync(join(reports, n)).mtimeMs]));

    const second = await serve(data, rubrics);
    let state = '';
    for (let i = 0; i < 200 && state !== 'done'; i++) {
      state = ((await (await fetch(`${second.url}/batches/${id}`, { headers: auth })).json()) as { state: string })
        .state;
      if (state !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('done');
    const after = readdirSync(reports).sort();
    expect(after).toEqual(['s0.json', 's1.json', 's2.json', 's3.json', 's4.json', 's5.json']);
    for (const n of after)
      expect(ReportSchema.parse(JSON.parse(readFileSync(join(reports, n), 'utf8'))).status).toBe('graded');
    for (const n of before) expect(statSync(join(reports, n)).mtimeMs).toBe(mtimes[n]);
    second.proc.kill('SIGTERM');
    expect(await new Promise((r) => second.proc.once('exit', r))).toBe(0);
  });
});
