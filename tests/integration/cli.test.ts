// The batch CLI end to end, as an instructor runs it (a real process, real sandbox).
import { execFile, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodesText } from '../../src/domain/exit-codes.js';
import { ReportSchema, SummarySchema, type Report } from '../../src/domain/report.js';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const LEAP = join(ROOT, 'rubrics', 'leap', 'rubric.yaml');

function cli(args: string[], timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout, env: { ...process.env, CI: 'true' } },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function submissions(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evigrade-cli-'));
  const put = (p: string, c: string) => {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  };
  put('correct/leap.js', 'export const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);\n');
  put('partial.js', 'module.exports = { isLeap: (y) => y % 4 === 0 };\n');
  put('broken/leap.js', 'export const isLeap = (y) => {{ ;\n');
  symlinkSync('/etc/passwd', join(dir, 'sneaky.js'));
  return dir;
}
const readReport = (out: string, id: string): Report =>
  ReportSchema.parse(JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8')));

describe('evigrade grade', () => {
  it('writes one valid report per submission, summary.json and grades.csv; a bad submission does not stop the batch', async () => {
    const subs = submissions();
    const out = join(subs, '..', `${subs.split('/').pop()}-out`);
    const r = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--concurrency', '2']);
    expect(r.code).toBe(0);
    // Off a terminal: the summary a person reads on stdout, and no machine log unless asked for (issue 31).
    expect([r.stdout, r.stderr]).toEqual([
      [
        'Graded 4 submissions for "Leap year" (leap).',
        '  3 graded, 1 rejected, 0 grader errors (4 processed now, 0 kept from an earlier run)',
        '  mean final score 5.83 / 10 over the 3 graded',
        '  flagged (1):',
        '    broken: submission.load_error, score.unmeasured',
        '  rejected (1):',
        '    sneaky: INTAKE_SYMLINK',
        `Reports: ${out}/ (one <id>.json per student, summary.json, grades.csv); \`evigrade report ${out}\` writes report.html`,
        '',
      ].join('\n'),
      '',
    ]);
    expect(readdirSync(out).sort()).toEqual([
      'broken.json',
      'correct.json',
      'grades.csv',
      'partial.json',
      'sneaky.json',
      'summary.json',
    ]);
    const byId = Object.fromEntries(['correct', 'partial', 'broken', 'sneaky'].map((id) => [id, readReport(out, id)]));
    expect(Object.fromEntries(Object.entries(byId).map(([id, rep]) => [id, [rep.status, rep.scores.final]]))).toEqual({
      // partial passes 75% of the weighted tests, so its clean style and complexity earn 75% (quality: scaled).
      correct: ['graded', 10],
      partial: ['graded', 7.5],
      broken: ['graded', 0],
      sneaky: ['rejected', 0],
    });
    expect(byId.sneaky?.errors).toEqual([
      { code: 'INTAKE_SYMLINK', message: 'submission "sneaky": the submission itself is a symbolic link' },
    ]);
    expect(byId.correct?.evidence.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(byId.correct?.sandbox.backend).toMatch(/^(docker|bwrap|unshare)$/);
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    expect([summary.count, summary.graded, summary.rejected, summary.errored, summary.meanFinal]).toEqual([
      4, 3, 1, 0, 5.83,
    ]);
    const csv = readFileSync(join(out, 'grades.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe(
      '"submission","status","correctness","edge_cases","style","complexity","total","final","passed","tests","flags","unmeasured","name"',
    );
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      '"broken","graded"',
      '"correct","graded"',
      '"partial","graded"',
      '"sneaky","rejected"',
    ]);
    rmSync(subs, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('re-grades only what is missing on a re-run, and everything with --force', async () => {
    const subs = submissions();
    const out = mkdtempSync(join(tmpdir(), 'evigrade-out-'));
    expect((await cli(['grade', subs, '--rubric', LEAP, '--out', out])).code).toBe(0);
    const kept = readFileSync(join(out, 'correct.json'), 'utf8');
    rmSync(join(out, 'partial.json'));
    const again = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--log', 'json']);
    // --log json: machine logs on stderr, every line JSON; the summary stays on stdout.
    expect(again.stdout.split('\n').slice(0, 2)).toEqual([
      'Graded 4 submissions for "Leap year" (leap).',
      '  3 graded, 1 rejected, 0 grader errors (2 processed now, 2 kept from an earlier run)',
    ]);
    const lines = again.stderr
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            msg: string;
            submission?: string;
            reused?: boolean;
            graded?: number;
            reused_count?: number;
          },
      );
    const done = lines.filter((l) => l.msg === 'submission done').map((l) => [l.submission, l.reused]);
    expect(done.sort()).toEqual([
      ['broken', true],
      ['correct', true],
      ['partial', false],
      ['sneaky', false],
    ]);
    expect(readFileSync(join(out, 'correct.json'), 'utf8')).toBe(kept);
    const forced = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--force', '--log', 'json']);
    // The log's counts are summary.json's (by status), beside how many were processed now (issue 16).
    const finished = (stderr: string) =>
      stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'batch finished');
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    expect(finished(forced.stderr)).toMatchObject({
      count: summary.count,
      graded: summary.graded,
      rejected: summary.rejected,
      errored: summary.errored,
      processedNow: 4,
      reused: 0,
    });
    expect([summary.graded, summary.rejected]).toEqual([3, 1]);
    expect(finished(again.stderr)).toMatchObject({ count: 4, graded: 3, rejected: 1, processedNow: 2, reused: 2 });
  });

  it('after Ctrl-C keeps every finished report, leaves no partial file, and the re-run completes the batch', async () => {
    const subs = mkdtempSync(join(tmpdir(), 'evigrade-int-'));
    for (let i = 0; i < 6; i++) {
      mkdirSync(join(subs, `s${i}`));
      // Each submission spends ~1.5 s in a test, so the interrupt lands mid-batch.
      writeFileSync(
        join(subs, `s${i}`, 'leap.js'),
        'const t = Date.now(); while (Date.now() - t < 1500); export const isLeap = (y) => y % 4 === 0;\n',
      );
    }
    const out = mkdtempSync(join(tmpdir(), 'evigrade-out-'));
    const child = spawn(process.execPath, [BIN, 'grade', subs, '--rubric', LEAP, '--out', out, '--concurrency', '1'], {
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(join(out, 's0.json'))) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 50);
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    const after = readdirSync(out);
    expect(after.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const finished = after.filter((n) => /^s\d\.json$/.test(n));
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(6);
    for (const n of finished)
      expect(ReportSchema.parse(JSON.parse(readFileSync(join(out, n), 'utf8'))).status).toBe('graded');
    const mtimes = Object.fromEntries(finished.map((n) => [n, statSync(join(out, n)).mtimeMs]));
    expect((await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--concurrency', '2'])).code).toBe(0);
    expect(
      readdirSync(out)
        .filter((n) => /^s\d\.json$/.test(n))
        .sort(),
    ).toEqual(['s0.json', 's1.json', 's2.json', 's3.json', 's4.json', 's5.json']);
    for (const n of finished) expect(statSync(join(out, n)).mtimeMs).toBe(mtimes[n]);
  });

  it('answers --help on every command with its usage (exit 0), and refuses an empty folder and an unknown command (exit 2)', async () => {
    const cmds = ['grade', 'check-rubric', 'sandbox', 'report', 'verify', 'serve', 'worker', 'history'];
    const helps = await Promise.all(cmds.map((c) => cli([c, '--help'])));
    expect(helps.map((h, i) => [h.code, h.stdout.startsWith(`usage:\n  evigrade ${cmds[i]}`)])).toEqual(
      cmds.map(() => [0, true]),
    );
    expect(helps[0]?.stdout).toContain('--sandbox auto|docker|bwrap|unshare');
    // The one exit-code table, as README.md and DESIGN.md show it too (contracts.test.ts).
    const top = await cli(['--help']);
    expect([top.code, top.stdout.endsWith(`\n${exitCodesText()}`), top.stdout]).toEqual([
      0,
      true,
      expect.stringContaining('\n  130  interrupted (Ctrl-C)'),
    ]);
    const empty = mkdtempSync(join(tmpdir(), 'evigrade-empty-'));
    writeFileSync(join(empty, '.DS_Store'), '');
    const none = await cli(['grade', empty, '--rubric', LEAP, '--out', join(empty, 'out')]);
    expect([none.code, none.stderr.trim()]).toEqual([
      2,
      `evigrade: error USAGE: no submissions in "${empty}": expected one file or folder per student (hidden files are ignored)`,
    ]);
    const bogus = await cli(['gradee']);
    expect([bogus.code, bogus.stderr.trim()]).toEqual([
      2,
      'evigrade: error USAGE: unknown command "gradee" (commands: grade, check-rubric, audit, sandbox, report, verify, serve, worker, history, override)',
    ]);
  });

  it('refuses bad usage and bad rubrics with exit 2 and a message naming the problem', async () => {
    const noRubric = await cli(['grade', '/tmp', '--out', '/tmp/x']);
    expect([noRubric.code, noRubric.stderr.trim()]).toEqual([
      2,
      'evigrade: error USAGE: grade: --rubric <rubric.yaml> is required',
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-badrubric-'));
    writeFileSync(
      join(dir, 'r.yaml'),
      'id: x\ntitle: X\nlanguage: javascript\nstatement: s\nentry: ./x\ntests: [t.js]\nlimits: { memory_mb: lots }\n',
    );
    const bad = await cli(['grade', dir, '--rubric', join(dir, 'r.yaml'), '--out', join(dir, 'out')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('RUBRIC_INVALID');
    expect(bad.stderr).toContain('r.yaml: limits.memory_mb: Invalid input: expected number, received string');
  });
});

describe('evigrade grade on a full disk', () => {
  // A 16 KiB tmpfs as the output folder (root only, as in CI): the first report does not fit.
  it.skipIf(process.getuid?.() !== 0)(
    'stops with OUTPUT_FAILED (exit 5) naming the file and the system reason, without a stack trace or a partial file',
    async () => {
      const subs = submissions();
      const out = mkdtempSync(join(tmpdir(), 'evigrade-full-'));
      const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', out]);
      expect(mount.status, String(mount.stderr)).toBe(0);
      try {
        writeFileSync(join(out, 'ballast'), Buffer.alloc(12 * 1024));
        const r = await cli(['grade', subs, '--rubric', LEAP, '--out', out, '--concurrency', '1']);
        const error = r.stderr.split('\n').find((l) => l.startsWith('evigrade: error')) ?? r.stderr;
        expect([
          r.code,
          /^evigrade: error OUTPUT_FAILED: cannot write \/\S+\.json: ENOSPC: no space left on device$/.test(error),
          /^\s+at /m.test(r.stderr),
        ]).toEqual([5, true, false]);
        expect(readdirSync(out).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      } finally {
        spawnSync('umount', [out]);
      }
    },
  );
});

describe('evigrade check-rubric', () => {
  it('passes the bundled rubric with its reference', async () => {
    const r = await cli(['check-rubric', LEAP]);
    expect([r.code, r.stdout.trim().split('\n').at(-1)]).toEqual([
      0,
      'reference solution passes all 11 tests (score 10/10)',
    ]);
  });

  it('fails (exit 3) when the reference does not pass every test, listing the failures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-ref-'));
    mkdirSync(join(dir, 'ref'));
    writeFileSync(join(dir, 'ref', 'half.js'), 'exports.half = (x) => Math.floor(x / 2);\n');
    writeFileSync(
      join(dir, 't.test.js'),
      "const { half } = require('./half');\ntest('even', () => expect(half(4)).toBe(2));\ntest('odd', () => expect(half(3)).toBe(1.5));\n",
    );
    writeFileSync(
      join(dir, 'r.yaml'),
      'id: half\ntitle: Half\nlanguage: javascript\nstatement: halve\nentry: ./half\ntests: [t.test.js]\nreference: ref\n',
    );
    const r = await cli(['check-rubric', join(dir, 'r.yaml')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('REFERENCE_FAILED');
    expect(r.stderr).toContain('fails 1 of 2 tests');
    expect(r.stderr).toContain('T2 failed: odd');
  });

  it('names each visibility or hint selector that matches no test, group or test file (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evigrade-vis-'));
    writeFileSync(join(dir, 't.test.js'), "describe('half', () => { test('even', () => {}); });\n");
    const yaml = (extra: string) =>
      `id: half\ntitle: Half\nlanguage: javascript\nstatement: halve\nentry: ./half\ntests: [t.test.js]\n${extra}`;
    writeFileSync(
      join(dir, 'bad.yaml'),
      yaml('visibility: { "half > odd": visible, t.test.js: after_due }\nhint: { halve: "Divide." }\n'),
    );
    writeFileSync(
      join(dir, 'good.yaml'),
      yaml('visibility: { t.test.js: after_due, "half > even": visible }\nhint: { half: "Divide." }\n'),
    );
    const bad = await cli(['check-rubric', join(dir, 'bad.yaml')]);
    expect([bad.code, bad.stderr.trim()]).toEqual([
      2,
      `evigrade: error RUBRIC_TESTS_INVALID: ${join(dir, 'bad.yaml')}: "half > odd" (in visibility) matches no test, group or test file; "halve" (in hint) matches no test, group or test file`,
    ]);
    expect((await cli(['check-rubric', join(dir, 'good.yaml')])).code).toBe(0);
  });
});
