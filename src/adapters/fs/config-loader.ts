import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { yamlErrorText } from './yaml-errors.js';
import { ConfigSchema, type Config } from '../../domain/config.js';
import { EvigradeError } from '../../domain/errors.js';
import { formatZodIssues } from './rubric-loader.js';

const DEFAULT_FILE = 'evigrade.config.yaml';

/**
 * Loads the configuration once: an explicit path, else EVIGRADE_CONFIG, else
 * ./evigrade.config.yaml if present, else defaults. Environment variables then
 * add to it (EVIGRADE_JUDGE_ENDPOINT + EVIGRADE_JUDGE_MODEL, EVIGRADE_API_KEYS, EVIGRADE_QUEUE, EVIGRADE_DB, EVIGRADE_DOCKER_POOL).
 * Invalid input is an error naming the file and field — never a warning.
 */
export async function loadConfig(path: string | null, env: NodeJS.ProcessEnv = process.env): Promise<Readonly<Config>> {
  const file = path ?? env.EVIGRADE_CONFIG ?? (existsSync(DEFAULT_FILE) ? DEFAULT_FILE : null);
  let raw: unknown = {};
  if (file) {
    const text = await readFile(resolve(file), 'utf8').catch((e: NodeJS.ErrnoException) => {
      throw new EvigradeError('CONFIG_INVALID', `${file}: cannot be read (${e.code ?? e.message})`);
    });
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length)
      throw new EvigradeError('CONFIG_INVALID', doc.errors.map((e) => yamlErrorText(file, text, e)).join('\n'));
    raw = doc.toJS() ?? {};
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new EvigradeError('CONFIG_INVALID', formatZodIssues(file ?? '(defaults)', parsed.error.issues));
  const config = parsed.data;
  if (env.EVIGRADE_JUDGE_ENDPOINT || env.EVIGRADE_JUDGE_MODEL) {
    if (!env.EVIGRADE_JUDGE_ENDPOINT || !env.EVIGRADE_JUDGE_MODEL) {
      throw new EvigradeError(
        'CONFIG_INVALID',
        'EVIGRADE_JUDGE_ENDPOINT and EVIGRADE_JUDGE_MODEL must be set together',
      );
    }
    const spec = ConfigSchema.shape.judges
      .unwrap()
      .element.safeParse({ model: env.EVIGRADE_JUDGE_MODEL, endpointUrl: env.EVIGRADE_JUDGE_ENDPOINT });
    if (!spec.success)
      throw new EvigradeError('CONFIG_INVALID', formatZodIssues('EVIGRADE_JUDGE_ENDPOINT', spec.error.issues));
    config.judges = [spec.data];
  }
  if (env.EVIGRADE_QUEUE) {
    const url = ConfigSchema.shape.queue.unwrap().shape.url.safeParse(env.EVIGRADE_QUEUE);
    if (!url.success) throw new EvigradeError('CONFIG_INVALID', formatZodIssues('EVIGRADE_QUEUE', url.error.issues));
    config.queue = { ...config.queue, url: url.data };
  }
  const pool = sandboxCount(env, 'EVIGRADE_DOCKER_POOL', 'docker_pool', '0 to 32');
  if (pool !== undefined) config.sandbox = { ...config.sandbox, docker_pool: pool };
  const cell = sandboxCount(env, 'EVIGRADE_DOCKER_CELL', 'docker_cell', '1 to 256');
  if (cell !== undefined) config.sandbox = { ...config.sandbox, docker_cell: cell };
  if (env.EVIGRADE_PYTHON_FORK_SERVER !== undefined) {
    if (!['0', '1'].includes(env.EVIGRADE_PYTHON_FORK_SERVER))
      throw new EvigradeError(
        'CONFIG_INVALID',
        `EVIGRADE_PYTHON_FORK_SERVER: expected 1 (on) or 0 (off), got "${env.EVIGRADE_PYTHON_FORK_SERVER}"`,
      );
    config.sandbox = { ...config.sandbox, python_fork_server: env.EVIGRADE_PYTHON_FORK_SERVER === '1' };
  }
  if (env.EVIGRADE_DB) config.db = { ...config.db, url: env.EVIGRADE_DB };
  const envKeys = (env.EVIGRADE_API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  config.api_keys = [...config.api_keys, ...envKeys];
  return Object.freeze(config);
}

/** A whole-number sandbox setting from the environment, checked by the config schema's own rule for that key. */
function sandboxCount(
  env: NodeJS.ProcessEnv,
  name: 'EVIGRADE_DOCKER_POOL' | 'EVIGRADE_DOCKER_CELL',
  key: 'docker_pool' | 'docker_cell',
  range: string,
): number | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const n = ConfigSchema.shape.sandbox.unwrap().shape[key].safeParse(Number(raw));
  if (!n.success || raw.trim() === '')
    throw new EvigradeError('CONFIG_INVALID', `${name}: expected a whole number from ${range}, got "${raw}"`);
  return n.data;
}
