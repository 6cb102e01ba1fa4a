// The judge in a whole batch through the CLI: the endpoint down still yields every
// report; the re-run with the judge up asks only for what failed; a third run asks nothing.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SummarySchema } from '../../src/domain/report.js';
import { startFakeJudge, type FakeJudge } from '../fakes/judge-server.js';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');
let fake: FakeJudge;
beforeAll(async () => {
  fake = await startFakeJudge();
});
afterAll(() => fake.close());

const cli = (args: string[], cwd: string): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, timeout: 120_000, env: { ...process.env, HF_TOKEN: '' } },
      (err, _o, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });

describe('judge in a batch', () => {
  it('endpoint down → every report, deterministic; judge back up → only those are judged; again → no call', async () => {
    const work = mkdtempSync(join(tmpdir(), 'evigrade-jb-'));
    const subs = join(work, 'subs');
    for (const [id, body] of [
      ['a', 'y % 4 === 0'],
      ['b', 'y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)'],
      ['c', 'false'],
    ]) {
      mkdirSync(join(subs, id as string), { recursive: true });
      writeFileSync(join(subs, id as string, 'leap.js'), `export const isLeap = (y) => ${body};\n`);
    }
    const out = join(work, 'out');
    const summary = () => SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));

    const t0 = Date.now();
    const down = await cli(
      [
        'grade',
        subs,
        '--rubric',
        LEAP,
        '--out',
        out,
        '--judge-endpoint',
        'http://127.0.0.1:9',
        '--judge-model',
        'honest',
      ],
      work,
    );
    expect(down.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(summary().judge).toMatchObject({ answered: 0, failed: 3, blended: 0 });

    const before = fake.calls.length;
    const up = await cli(
      ['grade', subs, '--rubric', LEAP, '--out', out, '--judge-endpoint', fake.url, '--judge-model', 'honest'],
      work,
    );
    expect(up.code).toBe(0);
    expect(fake.calls.length - before).toBe(3);
    expect(summary().judge).toMatchObject({ answered: 3, failed: 0, calls: 3 });

    const again = await cli(
      [
        'grade',
        subs,
        '--rubric',
        LEAP,
        '--out',
        out,
        '--judge-endpoint',
        fake.url,
        '--judge-model',
        'honest',
        '--force',
      ],
      work,
    );
    expect(again.code).toBe(0);
    expect(fake.calls.length - before).toBe(3); // --force re-grades, but every answer comes from the cache
    expect(summary().judge).toMatchObject({ answered: 3, cached: 3, calls: 0 });
  });
});
