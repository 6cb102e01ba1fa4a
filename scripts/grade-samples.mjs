#!/usr/bin/env node
// Grades the sample submissions against every sample rubric:
//   for each rubrics/<id>/rubric.yaml:
//     node bin/evigrade.js grade submissions/<id> --rubric rubrics/<id>/rubric.yaml --out reports/<id> [extra args]
// Extra arguments are passed through to every grade command, e.g.
//   node scripts/grade-samples.mjs --force --concurrency 2
// Prints one line per rubric. Exit code: 0 when every grade command exited 0
// or 1 (1 = some submissions hit grader errors, which is a report, not a
// failure of this script); otherwise the highest exit code seen (2 usage or
// rubric error, 3 reference fails, 4/5 sandbox, 130 interrupted), or 2 when a
// grade command was killed by a signal or could not be started.
// No dependencies and no shell: every command is an argument array.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'evigrade.js');
const extra = process.argv.slice(2);

const rel = (p) => relative(ROOT, p) || '.';

function rubricIds() {
  const dir = join(ROOT, 'rubrics');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && existsSync(join(dir, d.name, 'rubric.yaml')))
    .map((d) => d.name)
    .sort();
}

/** "17 graded, 0 rejected, 0 errored, mean 6.12" from the summary the grader just wrote. */
function summaryLine(outDir) {
  try {
    const s = JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8'));
    const flagged = Array.isArray(s.flagged) && s.flagged.length ? `, flagged: ${s.flagged.join(' ')}` : '';
    return `${s.count} submissions: ${s.graded} graded, ${s.rejected} rejected, ${s.errored} errored, mean final ${s.meanFinal}${flagged}`;
  } catch {
    return 'no summary.json';
  }
}

const ids = rubricIds();
if (ids.length === 0) {
  process.stderr.write(`grade-samples: no rubrics/*/rubric.yaml under ${ROOT}\n`);
  process.exit(2);
}

let worst = 0;
for (const id of ids) {
  const rubric = join(ROOT, 'rubrics', id, 'rubric.yaml');
  const submissions = join(ROOT, 'submissions', id);
  const out = join(ROOT, 'reports', id);
  if (!existsSync(submissions)) {
    process.stdout.write(`${id}: skipped (no ${rel(submissions)} folder)\n`);
    continue;
  }
  const args = [CLI, 'grade', submissions, '--rubric', rubric, '--out', out, ...extra];
  const t0 = Date.now();
  // stdout/stderr of the grader (progress, pino logs) go straight to ours.
  const res = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  let code;
  let how;
  if (res.error) {
    code = 2;
    how = `could not run (${res.error.message})`;
  } else if (res.status === null) {
    code = 2;
    how = `killed by ${res.signal}`;
  } else {
    code = res.status;
    how = `exit ${code}`;
  }
  worst = Math.max(worst, code);
  const detail = code >= 2 ? '' : `; ${summaryLine(out)}`;
  process.stdout.write(`${id}: ${how} in ${secs}s -> ${rel(out)}${detail}\n`);
  if (code === 130 || res.signal === 'SIGINT' || res.signal === 'SIGTERM') break; // interrupted: stop here
}

process.exit(worst >= 2 ? worst : 0);
