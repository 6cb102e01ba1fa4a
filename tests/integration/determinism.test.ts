// A grade is a function of the submission, the rubric and the tool versions, never of the grader's speed.
// The samples and submissions of our own are graded twice by the real CLI: on this machine as it is, and
// with the grader and every job it starts in a cgroup capped at a quarter of one core while busy processes
// load every core beside it (ESLint's cold start alone then takes longer than the old 5 s wall budget).
// Scores, flags, test results and evidence hashes must be identical, and every report of the slow run must
// verify against a fresh re-run of its inputs (what `evigrade verify --submission` does).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRubric } from '../../src/adapters/fs/rubric-loader.js';
import { readSubmission } from '../../src/adapters/fs/intake.js';
import { ReportSchema, type Report } from '../../src/domain/report.js';
import { collectExpected, gradeDeterministic } from '../../src/engine.js';
import { checkReport, compareRerun } from '../../src/report/verify.js';
import { busyProcesses, cpuCgroup } from '../fakes/slow-machine.js';
import { analysisPool, ROOT, sandboxFor } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
const RUBRICS = (process.env.DETERMINISM_RUBRICS ?? 'leap,matrix-sum,temperature,word-count').split(',');
const work = mkdtempSync(join(tmpdir(), 'evigrade-determinism-'));
const subsOf = (id: string): string => join(work, 'subs', id);
const rubricOf = (id: string): string => join(ROOT, 'rubrics', id, 'rubric.yaml');

/** The samples, plus ours: a comment-padded copy of a partial answer and a file past the code-size limit. */
function prepare(): void {
  for (const id of RUBRICS) cpSync(join(ROOT, 'submissions', id), subsOf(id), { recursive: true });
  if (!RUBRICS.includes('leap')) return;
  const bob = readFileSync(join(ROOT, 'submissions', 'leap', 'partial-bob.js'), 'utf8');
  writeFileSync(
    join(subsOf('leap'), 'padded-bob.js'),
    `/*\n${'padding '.repeat(32 * 1024)}\n*/\n${'\n'.repeat(5000)}${bob}`,
  );
  const table = Array.from(
    { length: 24_000 },
    (_, i) => `  ${1600 + i}: ${(1600 + i) % 4 === 0 && ((1600 + i) % 100 !== 0 || (1600 + i) % 400 === 0)},`,
  ).join('\n');
  writeFileSync(
    join(subsOf('leap'), 'table-tim.js'),
    `const LEAP = {\n${table}\n};\nexport const isLeap = (y) => (y in LEAP ? LEAP[y] : y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));\n`,
  );
}

/** One CLI run per rubric, all at once; `place` moves each process into the slow cgroup the moment it exists. */
async function gradeAll(out: string, place: (pid: number) => void = () => undefined): Promise<number[]> {
  const env = { ...process.env, CI: 'true', HF_TOKEN: '' };
  return Promise.all(
    RUBRICS.map(
      (id) =>
        new Promise<number>((resolve, reject) => {
          const args = [
            BIN,
            'grade',
            subsOf(id),
            '--rubric',
            rubricOf(id),
            '--out',
            join(out, id),
            '--sandbox',
            'bwrap',
            '--no-llm',
            '--concurrency',
            '2',
          ];
          const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
          place(child.pid as number);
          let err = '';
          child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
          child.on('error', reject);
          child.on('close', (code) =>
            code === 0 ? resolve(0) : reject(new Error(`grade ${id} exited ${code}: ${err}`)),
          );
        }),
    ),
  );
}

function reports(out: string): Map<string, Report> {
  const all = new Map<string, Report>();
  for (const id of RUBRICS) {
    for (const f of readdirSync(join(out, id)).filter((n) => n.endsWith('.json') && n !== 'summary.json')) {
      all.set(`${id}/${f}`, ReportSchema.parse(JSON.parse(readFileSync(join(out, id, f), 'utf8'))));
    }
  }
  return all;
}

/** Everything a grade consists of; timings and generation time are the only fields left out. */
const grade = (r: Report) => ({
  status: r.status,
  scores: r.scores,
  flags: r.flags,
  evidence: r.evidence.hash,
  tests: r.tests.map((t) => [t.id, t.status, t.message]),
  violations: r.sandbox.violations,
  runs: r.sandbox.runs,
});

/** "report field: idle … / slow …" for each field of a grade that differs. */
function differing(key: string, a: ReturnType<typeof grade>, b: ReturnType<typeof grade>): string[] {
  return (Object.keys(a) as (keyof typeof a)[])
    .filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]))
    .map((f) => `${key} ${f}: idle ${JSON.stringify(a[f]).slice(0, 600)} / slow ${JSON.stringify(b[f]).slice(0, 600)}`);
}

let idle: Map<string, Report>;
let slow: Map<string, Report>;

beforeAll(() => prepare());
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('determinism: the same grades idle and at a quarter of a core under load', () => {
  it('grades every sample and our own submissions on this machine as it is', async () => {
    await gradeAll(join(work, 'idle'));
    idle = reports(join(work, 'idle'));
    if (RUBRICS.length === 4) expect(idle.size).toBe(26);
    if (!RUBRICS.includes('leap')) return;
    // Comments and blank lines do not count toward the analysis size limit: padding changes nothing.
    const [bob, padded] = [idle.get('leap/partial-bob.json'), idle.get('leap/padded-bob.json')];
    expect(padded?.scores.deterministic).toEqual(bob?.scores.deterministic);
    // The padding lifts nothing (it once lifted a partial answer from 8.3 to 10).
    expect([padded?.scores.final, (bob?.scores.final ?? 10) < 10]).toEqual([bob?.scores.final, true]);
    // Code past the size limit scores 0 on style and complexity, and says so.
    const tim = idle.get('leap/table-tim.json') as Report;
    expect(tim.scores.deterministic).toEqual({ correctness: 10, edge_cases: 10, style: 0, complexity: 0, total: 8 });
    expect(tim.scores.unmeasured?.map((u) => u.criterion)).toEqual(['style', 'complexity']);
    expect(tim.flags.map((f) => [f.code, f.severity])).toContainEqual(['score.unmeasured', 'warning']);
  }, 300_000);

  it('grades them again with the grader and its jobs capped at a quarter of one core beside busy processes: nothing differs', async () => {
    const cg = cpuCgroup('evigrade-slow', 0.25);
    if (typeof cg === 'string') throw new Error(cg); // root on Linux: CI and this machine always can
    const busy = busyProcesses();
    try {
      await gradeAll(join(work, 'slow'), (pid) => cg.add(pid));
    } finally {
      busy.stop();
      cg.close();
    }
    slow = reports(join(work, 'slow'));
    expect([...slow.keys()].sort()).toEqual([...idle.keys()].sort());
    const differences = [...idle.entries()].flatMap(([k, r]) => differing(k, grade(r), grade(slow.get(k) as Report)));
    expect(differences).toEqual([]);
  }, 900_000);

  it('every report of the slow run verifies, hashes and scores, and against a re-run of its inputs', async () => {
    const sandbox = await sandboxFor('bwrap');
    const ports = { sandbox, analysis: analysisPool(), now: () => new Date(0), tools: {}, maxResumes: 2 };
    const problems: string[] = [];
    for (const id of RUBRICS) {
      const rubric = await loadRubric(rubricOf(id));
      const expected = await collectExpected(rubric, sandbox);
      for (const [key, report] of [...slow.entries()].filter(([k]) => k.startsWith(`${id}/`))) {
        const found = checkReport(report);
        if (report.status !== 'rejected') {
          const name = readdirSync(subsOf(id)).find(
            (n) => n === report.submission.id || n.replace(/\.[^.]+$/, '') === report.submission.id,
          ) as string;
          const sub = await readSubmission(
            join(subsOf(id), name),
            report.submission.id,
            rubric.spec.limits,
            rubric.spec.entry,
            rubric.spec.language,
          );
          const again = await gradeDeterministic(sub, rubric, expected, ports);
          found.push(
            ...compareRerun(report, again).map((d) =>
              d.field === 'tests'
                ? { ...d, recomputed: `${d.recomputed} (${again.tests.map((t) => t.message)[0]})` }
                : d,
            ),
          );
        }
        problems.push(...found.map((d) => `${key}: ${d.field}: ${d.report} vs ${d.recomputed}`));
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
