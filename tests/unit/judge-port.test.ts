// What /readyz shows is what `judge` uses: one precedence (CLI > rubric > configuration > default), one place.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/domain/config.js';
import { JudgeSpecSchema } from '../../src/domain/judge.js';
import { createJudgePort } from '../../src/judges/port.js';
import { inlineRubric } from '../helpers.js';

const spec = (model: string) => JudgeSpecSchema.parse({ model, endpointUrl: 'http://127.0.0.1:9/v1' });
const config = (judges?: unknown[]) =>
  ConfigSchema.parse({
    judge: { cache_dir: mkdtempSync(join(tmpdir(), 'evigrade-jp-')) },
    ...(judges ? { judges } : {}),
  });
const plain = inlineRubric({ 'a.test.js': "test('x', () => {});" });
const own = inlineRubric(
  { 'a.test.js': "test('x', () => {});" },
  { judges: [{ model: 'rubric-model', endpointUrl: 'http://127.0.0.1:9/v1' }] },
);

describe('the judge port describes the chain it uses', () => {
  it('default chain without HF_TOKEN: nothing usable, each entry says why', () => {
    const d = createJudgePort({ disabled: null, cliSpecs: null, config: config(), env: { hfToken: null } }).describe();
    expect([d.source, d.chain, d.unusable.length, d.disabled]).toEqual(['default', [], 3, null]);
    const withToken = createJudgePort({
      disabled: null,
      cliSpecs: null,
      config: config(),
      env: { hfToken: 'hf_x' },
    }).describe();
    expect(withToken.chain).toEqual([
      'Qwen/Qwen2.5-Coder-7B-Instruct',
      'Qwen/Qwen2.5-Coder-1.5B-Instruct',
      'bigcode/starcoder2-15b-instruct-v0.1',
    ]);
  });

  it('configuration, then a rubric of its own, then CLI flags override', () => {
    const port = createJudgePort({
      disabled: null,
      cliSpecs: null,
      config: config([{ model: 'config-model', endpointUrl: 'http://127.0.0.1:9/v1' }]),
      env: { hfToken: null },
    });
    expect([port.describe(), port.describe(plain), port.describe(own)].map((d) => [d.source, d.chain])).toEqual([
      ['config', ['config-model']],
      ['config', ['config-model']],
      ['rubric', ['rubric-model']],
    ]);
    const cli = createJudgePort({
      disabled: 'disabled with --no-llm',
      cliSpecs: [spec('cli-model')],
      config: config(),
      env: { hfToken: null },
    });
    expect([cli.describe(own).source, cli.describe(own).chain, cli.describe().disabled]).toEqual([
      'cli',
      ['cli-model'],
      'disabled with --no-llm',
    ]);
  });
});
