// The instructor's item decisions for a batch folder: `<out>/overrides.jsonl`, one JSON object per line,
// appended (never rewritten), so every decision and who took it stays on record. `evigrade override` writes it;
// `evigrade grade` reads it, so a regrade keeps every decision.
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EvigradeError } from '../../domain/errors.js';
import {
  OverrideRecordSchema,
  type ItemOverride,
  type OverrideRecord,
  type OverrideSource,
} from '../../domain/items.js';

export const OVERRIDES_FILE = 'overrides.jsonl';

/** Every decision in the file; a malformed line is an error naming the file and the line, never skipped. */
export async function readOverrides(outDir: string): Promise<OverrideRecord[]> {
  const path = join(outDir, OVERRIDES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new EvigradeError('USAGE', `cannot read ${path}: ${(e as Error).message}`);
  }
  return text.split('\n').flatMap((line, n) => {
    if (line.trim() === '') return [];
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new EvigradeError('USAGE', `${path}:${n + 1}: not JSON (${(e as Error).message})`);
    }
    const r = OverrideRecordSchema.safeParse(raw);
    if (!r.success) {
      const i = r.error.issues[0];
      throw new EvigradeError('USAGE', `${path}:${n + 1}: ${i?.path.join('.') || '(line)'}: ${i?.message}`);
    }
    return [r.data];
  });
}

export function fileOverrides(outDir: string): OverrideSource & { add(r: OverrideRecord): Promise<void> } {
  let all: Promise<OverrideRecord[]> | null = null;
  return {
    async forSubmission(rubricId, submissionId): Promise<ItemOverride[]> {
      all ??= readOverrides(outDir);
      return (await all)
        .filter((r) => r.rubric === rubricId && r.submission === submissionId)
        .map(({ rubric: _r, submission: _s, ...o }) => o);
    },
    async add(r) {
      await appendFile(join(outDir, OVERRIDES_FILE), `${JSON.stringify(OverrideRecordSchema.parse(r))}\n`);
      all = null;
    },
  };
}
