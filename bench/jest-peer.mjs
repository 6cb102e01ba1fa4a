// The peer two benches measure (batch.bench.mjs, grade.bench.mjs): one `jest` 29 process per submission, as
// exercism runs it; a devDependency, so nothing is installed at bench time.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const JEST = join(
  dirname(createRequire(join(ROOT, 'package.json')).resolve('jest/package.json')),
  'bin',
  'jest.js',
);

/** The argv (after `node`) that runs Jest once over `rootDir`, its transform cache kept in `cacheDir`. */
export const jestArgs = (rootDir, cacheDir) => [
  JEST,
  '--ci',
  '--silent',
  '--watchman=false',
  `--cacheDirectory=${cacheDir}`,
  '--rootDir',
  rootDir,
];
