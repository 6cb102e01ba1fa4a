import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JudgeOutputSchema, type JudgeOutput } from '../domain/judge.js';
import { writeFileAtomic } from './fs/atomic.js';

export interface CachedAnswer {
  readonly output: JudgeOutput;
  /** Every sample's answer when judge.samples > 1 (the first is `output`). */
  readonly outputs?: readonly JudgeOutput[];
  readonly model: string;
  readonly judge: string;
}

export interface JudgeCache {
  get(key: string): Promise<CachedAnswer | null>;
  put(key: string, value: CachedAnswer): Promise<void>;
}

/**
 * Judge answers on disk, one file per key (sha256 of model, judge, prompt
 * version, code, evidence and rubric hashes). Writes are write-then-rename,
 * so concurrent workers never see half a file; a damaged entry is a miss.
 */
export function createJudgeCache(dir: string): JudgeCache {
  const path = (key: string): string => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      try {
        const raw = JSON.parse(await readFile(path(key), 'utf8')) as {
          output: unknown;
          outputs?: unknown;
          model: string;
          judge: string;
        };
        const output = JudgeOutputSchema.parse(raw.output);
        const outputs = raw.outputs === undefined ? {} : { outputs: JudgeOutputSchema.array().parse(raw.outputs) };
        return { output, model: String(raw.model), judge: String(raw.judge), ...outputs };
      } catch {
        return null;
      }
    },
    async put(key, value) {
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      await writeFileAtomic(path(key), JSON.stringify(value));
    },
  };
}
