// `evigrade history`: every recorded grading, filtered; its hash chains checked (--verify); two compared (--diff).
import { loadConfig } from '../adapters/fs/config-loader.js';
import type { Grading } from '../domain/history.js';
import type { StoredBatch } from '../domain/batches.js';
import { exportBatch } from '../report/write.js';
import { parseHistoryArgs } from '../cli/args.js';
import { EXIT } from '../cli/exit.js';
import { EvigradeError } from '../domain/errors.js';
import { gradingDiff } from '../stages/score/grading-diff.js';

const line = (g: Grading): string =>
  `#${g.id}  ${g.gradedAt}  ${g.rubricId}/${g.submissionId}  ${g.status}  ${g.final}  [${g.flags.join(' ')}]  by ${g.requestedBy}  report ${g.reportSha.slice(0, 12)}`;

const batchLine = (b: StoredBatch): string =>
  `${b.id}  ${b.createdAt}  ${b.origin}  ${b.rubricId}  ${b.total} submission(s)  by ${b.requestedBy}`;

export async function run(argv: string[]): Promise<number> {
  const args = parseHistoryArgs(argv);
  const where = args.db ?? (await loadConfig(args.config)).db.url;
  if (!where)
    throw new EvigradeError(
      'USAGE',
      'history: --db <postgres://…|folder> is required (or db.url in the config, or EVIGRADE_DB)',
    );
  const { openStore } = await import('./store.js');
  const opened = await openStore(where);
  const store = opened.history;
  try {
    if (args.batches) {
      for (const b of await opened.batches.list()) process.stdout.write(`${batchLine(b)}\n`);
      return EXIT.ok;
    }
    if (args.export && args.out) {
      const got = await opened.batches.get(args.export);
      if (!got) throw new EvigradeError('NOT_FOUND', `history: no batch "${args.export}" in ${opened.label}`);
      const reports = await exportBatch(args.out, got.batch, await opened.batches.reports(args.export));
      process.stdout.write(`${reports.length} report(s), summary.json and grades.csv -> ${args.out}\n`);
      return EXIT.ok;
    }
    const filter = {
      ...(args.rubric ? { rubricId: args.rubric } : {}),
      ...(args.submission ? { submissionId: args.submission } : {}),
      ...(args.flag ? { flag: args.flag } : {}),
      ...(args.flagged ? { flagged: true } : {}),
    };
    if (args.diff) {
      const [a, b] = await Promise.all(args.diff.map((id) => store.report(id)));
      if (!a || !b)
        throw new EvigradeError(
          'NOT_FOUND',
          `history: no grading #${!a ? args.diff[0] : args.diff[1]} in ${store.label}`,
        );
      const changes = gradingDiff(a, b);
      process.stdout.write(changes.length ? `${changes.join('\n')}\n` : 'no difference\n');
      return EXIT.ok;
    }
    if (args.verify) {
      const problems = await store.verify(filter);
      const count = (await store.list(filter)).length;
      if (problems.length > 0) {
        throw new EvigradeError(
          'VERIFY_FAILED',
          `${store.label}: the history does not verify:\n${problems.map((p) => `  #${p.id} ${p.rubricId}/${p.submissionId}: ${p.problem}`).join('\n')}`,
        );
      }
      process.stdout.write(`${store.label}: ${count} grading(s) verified; every chain is intact\n`);
      return EXIT.ok;
    }
    for (const g of await store.list(filter)) process.stdout.write(`${line(g)}\n`);
    return EXIT.ok;
  } finally {
    await opened.close();
  }
}
