// The queue's pure edges: URL parsing and redaction, failure reasons, flags and configuration.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/fs/config-loader.js';
import { parseGradeArgs, parseServeArgs, parseWorkerArgs } from '../../src/cli/args.js';
import { type EvigradeError } from '../../src/domain/errors.js';
import { decodeFailure, encodeFailure } from '../../src/queue/outcome.js';
import { redisTarget } from '../../src/queue/redis-url.js';
import { redactUrl } from '../../src/util/url.js';

const thrown = (fn: () => unknown): [string, string] => {
  try {
    fn();
  } catch (e) {
    return [(e as EvigradeError).code, (e as Error).message];
  }
  return ['none', ''];
};

describe('queue URLs', () => {
  it('redacts passwords (user and ACL forms) and never echoes an unparsable URL', () => {
    expect([
      redactUrl('redis://:p%40ss@h:6379/2'),
      redactUrl('rediss://grader:s3cret@redis.example:6380'),
      redactUrl('redis://127.0.0.1:6379'),
      redactUrl('redis://:pw@[::1'),
    ]).toEqual([
      'redis://:***@h:6379/2',
      'rediss://grader:***@redis.example:6380',
      'redis://127.0.0.1:6379',
      '(an unparsable URL)',
    ]);
    expect([
      thrown(() => redisTarget('redis://:pw@[::1', '--queue')),
      thrown(() => redisTarget('http://:pw@h:1', '--queue')),
      thrown(() => redisTarget('redis://:pw@:1', '--queue')),
    ]).toEqual([
      ['USAGE', '--queue: the queue URL is not a valid URL (expected redis://[user:password@]host:port[/db])'],
      ['USAGE', '--queue: the queue URL must start with redis:// or rediss://, got http://'],
      ['USAGE', '--queue: the queue URL is not a valid URL (expected redis://[user:password@]host:port[/db])'],
    ]);
  });
});

describe('job failure reasons', () => {
  it('carry our error code through BullMQ, and name a lost worker for BullMQ’s own stalled reason', () => {
    const ours = decodeFailure(encodeFailure({ code: 'SANDBOX_FAILED', message: 'spawn EAGAIN', backend: 'bwrap' }), 1);
    const stalled = decodeFailure('job stalled more than allowable limit', 1);
    const garbled = decodeFailure('evigrade:{"code":"NOPE"}', 1);
    expect([ours.code, ours.message, ours.details, stalled.code, stalled.message, garbled.code]).toEqual([
      'SANDBOX_FAILED',
      'spawn EAGAIN',
      { backend: 'bwrap' },
      'WORKER_LOST',
      'the job took its worker down 2 time(s) (killed, crashed or stalled past its lock); it is not retried again',
      'JOB_INVALID',
    ]);
  });
});

describe('flags and configuration', () => {
  it('--queue takes a redis URL on grade, serve and worker; the old numeric serve --queue points to --backlog', () => {
    const base = ['subs', '--rubric', 'r.yaml', '--out', 'o'];
    expect([
      parseGradeArgs([...base, '--queue', 'redis://h:1'], 2).queueUrl,
      parseGradeArgs(base, 2).queueUrl,
      parseServeArgs(['--rubrics', 'r', '--queue', 'rediss://h:1', '--backlog', '7'], 2).backlog,
      parseWorkerArgs(['--queue', 'redis://h:1'], 3).concurrency,
    ]).toEqual(['redis://h:1', null, 7, 3]);
    expect([
      thrown(() => parseServeArgs(['--rubrics', 'r', '--queue', '8'], 2)),
      thrown(() => parseWorkerArgs(['--queue', 'h:1'], 1)),
      thrown(() => parseWorkerArgs(['--unsafe-no-sandbox'], 1)).map((x) => x.split('.')[0]),
    ]).toEqual([
      ['USAGE', 'serve: --queue now takes a redis:// URL; the number of waiting places is --backlog 8'],
      ['USAGE', 'worker: --queue must be a redis:// or rediss:// URL'],
      // A worker never runs jobs unsandboxed: the flag does not exist there.
      ['USAGE', "Unknown option '--unsafe-no-sandbox'"],
    ]);
  });

  it('EVIGRADE_QUEUE sets queue.url; a bad one is CONFIG_INVALID; defaults keep grading in-process', async () => {
    const none = '/nonexistent/evigrade.config.yaml';
    expect((await loadConfig(null, {})).queue).toEqual({
      url: null,
      prefix: 'evigrade',
      name: 'grade',
      attempts: 2,
      lock_ms: 30_000,
      stalled_interval_ms: 15_000,
      max_stalled: 1,
      in_flight: 512,
      keep_s: 86_400,
      max_job_kb: 8192,
      unavailable_ms: 120_000,
    });
    expect((await loadConfig(null, { EVIGRADE_QUEUE: 'redis://:pw@q:6379' })).queue.url).toBe('redis://:pw@q:6379');
    const bad = await loadConfig(null, { EVIGRADE_QUEUE: 'amqp://q' }).catch((e: EvigradeError) => [e.code, e.message]);
    expect(bad).toEqual(['CONFIG_INVALID', 'EVIGRADE_QUEUE: (top level): must start with redis:// or rediss://']);
    const missing = await loadConfig(none, {}).catch((e: EvigradeError) => e.code);
    expect(missing).toBe('CONFIG_INVALID');
  });

  it('EVIGRADE_DOCKER_POOL and EVIGRADE_DB are read once, at the edge, into the configuration', async () => {
    expect([
      (await loadConfig(null, {})).sandbox.docker_pool,
      (await loadConfig(null, { EVIGRADE_DOCKER_POOL: '0' })).sandbox.docker_pool,
    ]).toEqual([2, 0]);
    const bad = await Promise.all(
      ['lots', '', '99'].map((v) =>
        loadConfig(null, { EVIGRADE_DOCKER_POOL: v }).catch((e: EvigradeError) => [e.code, e.message]),
      ),
    );
    expect(bad).toEqual(
      ['lots', '', '99'].map((v) => [
        'CONFIG_INVALID',
        `EVIGRADE_DOCKER_POOL: expected a whole number from 0 to 32, got "${v}"`,
      ]),
    );
    expect((await loadConfig(null, { EVIGRADE_DB: '/srv/history' })).db.url).toBe('/srv/history');
  });

  it('EVIGRADE_PYTHON_FORK_SERVER turns the Python fork server off (on by default, where the backend forks), beside the Docker pool', async () => {
    const sandbox = async (env: Record<string, string>) => (await loadConfig(null, env)).sandbox;
    expect([
      await sandbox({}),
      await sandbox({ EVIGRADE_PYTHON_FORK_SERVER: '1', EVIGRADE_DOCKER_POOL: '3' }),
      await sandbox({ EVIGRADE_PYTHON_FORK_SERVER: '0' }),
      await sandbox({ EVIGRADE_DOCKER_CELL: '1' }),
    ]).toEqual([
      { docker_pool: 2, docker_cell: 16, python_fork_server: true },
      { docker_pool: 3, docker_cell: 16, python_fork_server: true },
      { docker_pool: 2, docker_cell: 16, python_fork_server: false },
      { docker_pool: 2, docker_cell: 1, python_fork_server: true },
    ]);
    const cell = await loadConfig(null, { EVIGRADE_DOCKER_CELL: '0' }).catch((e: EvigradeError) => [e.code, e.message]);
    expect(cell).toEqual(['CONFIG_INVALID', 'EVIGRADE_DOCKER_CELL: expected a whole number from 1 to 256, got "0"']);
    const bad = await loadConfig(null, { EVIGRADE_PYTHON_FORK_SERVER: 'yes' }).catch((e: EvigradeError) => [
      e.code,
      e.message,
    ]);
    expect(bad).toEqual(['CONFIG_INVALID', 'EVIGRADE_PYTHON_FORK_SERVER: expected 1 (on) or 0 (off), got "yes"']);
  });
});
