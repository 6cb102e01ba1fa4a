// An instructor's decision on a rubric item (issue 35), through the real CLI: `grade` with a judge on loopback,
// `override`, then `grade --force` again. The decision wins over the judge, survives the regrade, is on file
// (overrides.jsonl) and in the history (embedded Postgres) with who and why, and shows on the page and in grades.csv.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { openHistory } from '../../src/adapters/store/history.js';
import { historyOverrides } from '../../src/adapters/store/overrides.js';
import type { Report } from '../../src/domain/report.js';
import { startFakeJudge, type FakeJudge } from '../fakes/judge-server.js';
import { batchApp, ROOT, rubricService } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const cli = (args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, timeout: 180_000, env: { ...process.env, CI: 'true', HF_TOKEN: '' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

let fake: FakeJudge;
let dir: string;
beforeAll(async () => {
  fake = await startFakeJudge();
  dir = mkdtempSync(join(tmpdir(), 'evigrade-override-'));
  cpSync(join(ROOT, 'rubrics', 'matrix-sum'), join(dir, 'rubric'), { recursive: true });
  mkdirSync(join(dir, 'subs'));
  // The reference itself, as a student: every test passes; the judge (itemizer) finds no item's token in it.
  writeFileSync(
    join(dir, 'subs', 'nina.js'),
    readFileSync(join(ROOT, 'rubrics', 'matrix-sum', 'reference', 'matrix.js')),
  );
});
afterAll(() => fake.close());

const grade = (extra: string[] = []) =>
  cli(
    [
      'grade',
      join(dir, 'subs'),
      '--rubric',
      join(dir, 'rubric', 'rubric.yaml'),
      '--out',
      join(dir, 'out'),
      '--judge-endpoint',
      fake.url,
      '--judge-model',
      'itemizer',
      '--db',
      join(dir, 'db'),
      ...extra,
    ],
    dir,
  );
const report = (): Report => JSON.parse(readFileSync(join(dir, 'out', 'nina.json'), 'utf8')) as Report;
const item = (r: Report, id: string) => r.scores.items?.results.find((i) => i.id === id);

describe('instructor overrides of rubric items', () => {
  it('wins over the judge, survives a regrade, and is in the history with who and why', async () => {
    expect((await grade()).code).toBe(0);
    const first = report();
    expect(item(first, 'shared_helper')).toMatchObject({ decision: 'does_not_apply', source: 'judge', awarded: 0 });

    const o = await cli(
      [
        'override',
        join(dir, 'out'),
        '--submission',
        'nina',
        '--item',
        'shared_helper',
        '--applies',
        'yes',
        '--by',
        'ta-maria',
        '--why',
        'sumRow is shared by all three functions',
        '--db',
        join(dir, 'db'),
      ],
      dir,
    );
    expect(o).toMatchObject({ code: 0, stderr: '' });
    const changed = report();
    expect(item(changed, 'shared_helper')).toMatchObject({
      decision: 'applies',
      source: 'override',
      awarded: 0.5,
      reason: 'instructor ta-maria: sumRow is shared by all three functions',
      override: {
        item: 'shared_helper',
        applies: true,
        by: 'ta-maria',
        why: 'sumRow is shared by all three functions',
      },
    });
    expect(changed.scores.final).toBe(
      Math.min(10, Math.round((first.scores.final + changed.scores.items!.delta) * 100) / 100),
    );
    expect(o.stdout).toBe(
      `nina: shared_helper applies (0.5 point(s)) by ta-maria; final ${first.scores.final} -> ${changed.scores.final}\n`,
    );
    expect(
      readFileSync(join(dir, 'out', 'overrides.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      expect.objectContaining({
        rubric: 'matrix-sum',
        submission: 'nina',
        item: 'shared_helper',
        applies: true,
        by: 'ta-maria',
      }),
    ]);
    expect(readFileSync(join(dir, 'out', 'grades.csv'), 'utf8')).toContain(`${changed.scores.final}`);
    expect((await cli(['verify', join(dir, 'out', 'nina.json')], dir)).code).toBe(0);

    // A regrade asks the judge again (which still says no) and keeps the instructor's decision.
    expect((await grade(['--force'])).code).toBe(0);
    const again = report();
    expect(item(again, 'shared_helper')).toMatchObject({ decision: 'applies', source: 'override', awarded: 0.5 });
    expect(again.scores.final).toBe(changed.scores.final);

    const h = await cli(['history', '--db', join(dir, 'db'), '--submission', 'nina'], dir);
    expect(
      h.stdout
        .trim()
        .split('\n')
        .map((l) => / by (\S+) /.exec(l)?.[1]),
    ).toEqual(['cli', 'override:ta-maria', 'cli']);
  });

  it('refuses an item the rubric does not have, naming the ones it has', async () => {
    const o = await cli(
      ['override', join(dir, 'out'), '--submission', 'nina', '--item', 'recursion', '--applies', 'no', '--why', 'x'],
      dir,
    );
    expect([
      o.code,
      o.stderr.includes(
        `nina's rubric has no item "recursion" (its items: validates_first, shared_helper, mutates_input)`,
      ),
    ]).toEqual([2, true]);
  });
});

describe('instructor overrides over HTTP', () => {
  it('POST /submissions/{id}/overrides records the decision as a grading; POST /grade again keeps it', async () => {
    const rubric = await loadRubric(join(ROOT, 'rubrics', 'matrix-sum', 'rubric.yaml'));
    const history = await openHistory(join(mkdtempSync(join(tmpdir(), 'evigrade-ohttp-')), 'db'));
    const service = await rubricService(rubric, { concurrency: 1 });
    const ports = { ...service.ports, history, overrides: historyOverrides(history) };
    const key = 'override-key-0123456789';
    const headers = { authorization: `Bearer ${key}` };
    const { a } = await batchApp({ ports, rubrics: service.rubrics }, key, { history });
    try {
      const code = readFileSync(join(ROOT, 'rubrics', 'matrix-sum', 'reference', 'matrix.js'), 'utf8');
      const grade = async () =>
        (
          await a.inject({
            method: 'POST',
            url: '/grade',
            headers,
            payload: { rubric: 'matrix-sum', id: 'ivy', files: { 'matrix.js': code } },
          })
        ).json() as Report;
      const first = await grade();
      expect(first.scores.items?.results.map((i) => i.decision)).toEqual([
        'not_assessed',
        'not_assessed',
        'not_assessed',
      ]);
      const posted = await a.inject({
        method: 'POST',
        url: '/submissions/ivy/overrides',
        headers,
        payload: {
          rubric: 'matrix-sum',
          item: 'validates_first',
          applies: true,
          why: 'checkMatrix runs first',
          by: 'prof-lee',
        },
      });
      expect(posted.statusCode).toBe(201);
      const changed = (posted.json() as { report: Report }).report;
      expect(changed.scores.items?.results[0]).toMatchObject({ decision: 'applies', source: 'override', awarded: 0.5 });
      const again = await grade();
      expect(again.scores.items?.results[0]).toMatchObject({ decision: 'applies', source: 'override', awarded: 0.5 });
      expect(again.scores.final).toBe(changed.scores.final);
      const listed = (await a.inject({ url: '/submissions/ivy/history', headers })).json() as {
        gradings: { requestedBy: string }[];
      };
      expect(listed.gradings.map((g) => g.requestedBy.replace(/api:\w+/, 'api:KEY'))).toEqual([
        'api:KEY',
        'override:prof-lee',
        'api:KEY',
      ]);
      const bad = await a.inject({
        method: 'POST',
        url: '/submissions/ivy/overrides',
        headers,
        payload: { rubric: 'matrix-sum', item: 'nope', applies: true, why: 'x' },
      });
      expect([bad.statusCode, bad.json().error.message]).toEqual([
        404,
        'the latest grading of ivy has no rubric item "nope" (its items: validates_first, shared_helper, mutates_input)',
      ]);
    } finally {
      await a.close();
      await history.close();
    }
  });
});
