// `evigrade override <out-dir> --submission ID --item ID --applies yes|no --why TEXT [--by WHO] [--db …]`: an
// instructor's decision on one rubric item. It wins over the judge: the report, summary.json and grades.csv are
// written again with it, the decision is appended to <out>/overrides.jsonl (which every later `grade` reads, so
// a regrade keeps it), and with --db the changed report is a new grading in the history, by `override:<who>`.
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { reportFileText, writeBatchFiles, writeFileAtomic } from '../adapters/fs/atomic.js';
import { fileOverrides } from '../adapters/fs/overrides.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { ReportSchema, type Report } from '../domain/report.js';
import { readOutDir } from '../report/write.js';
import { applyOverrides } from '../stages/judge/overrides.js';
import { summarise } from '../stages/score/summary.js';

export const USAGE =
  'usage: evigrade override <out-dir> --submission ID --item ID --applies yes|no --why TEXT [--by WHO] [--db <postgres://…|folder>]';

interface OverrideArgs {
  readonly out: string;
  readonly submission: string;
  readonly item: string;
  readonly applies: boolean;
  readonly why: string;
  readonly by: string;
  readonly db: string | null;
}

function args(argv: string[]): OverrideArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        submission: { type: 'string' },
        item: { type: 'string' },
        applies: { type: 'string' },
        why: { type: 'string' },
        by: { type: 'string' },
        db: { type: 'string' },
      },
    });
  } catch (e) {
    throw new EvigradeError('USAGE', `override: ${(e as Error).message}\n${USAGE}`);
  }
  const { values: v, positionals } = parsed;
  const missing = ['submission', 'item', 'applies', 'why'].filter((k) => !v[k as keyof typeof v]);
  if (positionals.length !== 1 || missing.length)
    throw new EvigradeError(
      'USAGE',
      `override: ${positionals.length !== 1 ? 'one <out-dir> is needed' : `missing --${missing.join(', --')}`}\n${USAGE}`,
    );
  const applies = ({ yes: true, true: true, no: false, false: false } as Record<string, boolean>)[String(v.applies)];
  if (applies === undefined) throw new EvigradeError('USAGE', `override: --applies is yes or no, not "${v.applies}"`);
  return {
    out: positionals[0] as string,
    submission: String(v.submission),
    item: String(v.item),
    applies,
    why: String(v.why),
    by: v.by ?? userInfo().username,
    db: v.db ?? process.env.EVIGRADE_DB ?? null,
  };
}

async function readReport(out: string, id: string): Promise<Report> {
  const path = join(out, `${id}.json`);
  const text = await readFile(path, 'utf8').catch(() => {
    throw new EvigradeError('NOT_FOUND', `override: no report ${path} (the submission id is the report's file name)`);
  });
  const r = ReportSchema.safeParse(JSON.parse(text));
  if (!r.success) throw new EvigradeError('USAGE', `override: ${path} is not a valid report`);
  return r.data;
}

export async function run(argv: string[]): Promise<number> {
  const a = args(argv);
  const report = await readReport(a.out, a.submission);
  const items = report.scores.items?.results ?? [];
  if (!items.some((i) => i.id === a.item))
    throw new EvigradeError(
      'NOT_FOUND',
      items.length
        ? `override: ${a.submission}'s rubric has no item "${a.item}" (its items: ${items.map((i) => i.id).join(', ')})`
        : `override: ${a.submission}'s report has no rubric items (${report.status === 'graded' ? 'its rubric has none' : `it was not graded: ${report.status}`})`,
    );
  const decision = { item: a.item, applies: a.applies, by: a.by, why: a.why, at: new Date().toISOString() };
  await fileOverrides(a.out).add({ ...decision, rubric: report.rubric.id, submission: report.submission.id });
  const changed = applyOverrides(report, [decision]);
  await writeFileAtomic(join(a.out, `${report.submission.id}.json`), reportFileText(changed));
  const { reports, summary } = await readOutDir(a.out);
  const sandbox = summary?.sandbox ?? changed.sandbox.backend;
  await writeBatchFiles(
    a.out,
    summarise(
      reports,
      summary?.rubric ?? { id: changed.rubric.id, sha256: changed.rubric.sha256 },
      sandbox,
      new Date(),
    ),
    reports,
  );
  if (a.db) {
    const { openStore } = await import('./store.js');
    const store = await openStore(a.db);
    try {
      await store.history.record(changed, `override:${a.by}`);
    } finally {
      await store.close();
    }
  }
  const item = changed.scores.items?.results.find((i) => i.id === a.item);
  process.stdout.write(
    `${report.submission.id}: ${a.item} ${item?.decision.replace(/_/g, ' ')} (${item?.awarded} point(s)) by ${a.by}; final ${report.scores.final} -> ${changed.scores.final}\n`,
  );
  return EXIT.ok;
}
