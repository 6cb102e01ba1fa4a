import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from '../../runtime/atomic.js';
import { EvigradeError } from '../../domain/errors.js';
import type { Report, Summary } from '../../domain/report.js';
import { gradesCsv } from '../../stages/score/summary.js';

/** A failed write is the machine's, not the submission's: OUTPUT_FAILED naming the path and the system's reason (a full disk, a read-only mount). */
function outputFailed(path: string, e: unknown): EvigradeError {
  const err = e as NodeJS.ErrnoException;
  const why = err.code
    ? `${err.code}: ${err.message.replace(/^\w+: /, '').replace(/, \w+(?: '.*')?$/, '')}`
    : String(e);
  return new EvigradeError('OUTPUT_FAILED', `cannot write ${path}: ${why}`, { path, errno: err.code ?? null });
}

/** Write-then-rename (runtime/atomic.ts), so a reader (or a re-run after Ctrl-C) never sees half a file. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  try {
    await writeAtomic(path, data, { mode: 0o644 });
  } catch (e) {
    throw outputFailed(path, e);
  }
}

/** An output folder (and its parents), with the same error as a failed write. */
export async function makeOutputDir(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
  } catch (e) {
    throw outputFailed(path, e);
  }
}

/** A report as its file holds it (the CLI's, the HTTP batches' and an export's: byte for byte the same). */
export const reportFileText = (r: unknown): string => `${JSON.stringify(r, null, 2)}\n`;

/** A batch's `summary.json` and `grades.csv`, beside its reports. */
export async function writeBatchFiles(dir: string, summary: Summary, reports: readonly Report[]): Promise<void> {
  await writeFileAtomic(join(dir, 'summary.json'), reportFileText(summary));
  await writeFileAtomic(join(dir, 'grades.csv'), gradesCsv(reports));
}
