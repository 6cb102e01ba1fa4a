// Preloaded with `node --import` by tests/integration/startup.test.ts: appends the URL of every module this
// process (and each of its threads) loads to $EVIGRADE_LOAD_LOG, through loader hooks for ES modules and
// require.cache at exit for CommonJS (require() calls bypass the hooks on Node 20).
import { appendFileSync } from 'node:fs';
import { register, createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const log = process.env.EVIGRADE_LOAD_LOG;
if (log) {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () =>
    appendFileSync(
      log,
      Object.keys(cache)
        .map((f) => `${pathToFileURL(f).href}\n`)
        .join(''),
    ),
  );
}
