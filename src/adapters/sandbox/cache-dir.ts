import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where made caches are kept between grader runs (the grader's own, never reachable from a job):
 * EVIGRADE_CACHE_DIR, else $XDG_CACHE_HOME/evigrade, else ~/.cache/evigrade. Also read by bin/evigrade.js before the
 * grader itself loads (the V8 code cache of the CLI bundle), so this module imports nothing of ours.
 */
export const graderCacheDir = (): string =>
  process.env.EVIGRADE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'evigrade');
