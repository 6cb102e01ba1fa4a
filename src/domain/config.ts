import { z } from 'zod';
import { JudgeSpecSchema } from './judge.js';

/** The service/CLI configuration file (YAML), validated once at the edge with .strict(). */
/** Jobs one Docker container serves in turn by default (`sandbox.docker_cell`; docs/sandboxes.md "Docker cells"). */
export const DOCKER_CELL_JOBS = 16;

export const ConfigSchema = z
  .object({
    /** The judge chain; a rubric's own `judges` or CLI --judge-* flags take precedence. */
    judges: z.array(JudgeSpecSchema).min(1).optional(),
    judge: z
      .object({
        concurrency: z.number().int().min(1).max(256).default(4),
        rate_per_minute: z.number().int().min(0).max(100_000).default(120),
        retries: z.number().int().min(0).max(10).default(2),
        backoff_ms: z.number().int().min(0).max(60_000).default(500),
        max_backoff_ms: z.number().int().min(0).max(300_000).default(10_000),
        /** Where answers are kept; by default `judge/` in the grader's cache (runtime/cache.ts). */
        cache_dir: z.string().min(1).optional(),
        /** Answers asked of each judge (different seeds); their agreement is reported and decides items. */
        samples: z.number().int().min(1).max(9).default(1),
      })
      .strict()
      .prefault({}),
    http: z
      .object({ rate_per_minute: z.number().int().min(1).max(1_000_000).default(600) })
      .strict()
      .default({ rate_per_minute: 600 }),
    /** The job queue: absent (or url null) grades in-process; a redis:// URL sends jobs to `evigrade worker`s. */
    queue: z
      .object({
        url: z
          .string()
          .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
          .nullable()
          .default(null),
        /** Key prefix and queue name: one pair per course or deployment partitions the work. */
        prefix: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,32}$/)
          .default('evigrade'),
        name: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .default('grade'),
        /** Tries per job when the worker reports a machine failure (a failed sandbox); student failures are never retried. */
        attempts: z.number().int().min(1).max(5).default(2),
        /** A worker that stops renewing its lock for this long is presumed dead; its job goes back to the queue. */
        lock_ms: z.number().int().min(1000).max(600_000).default(30_000),
        stalled_interval_ms: z.number().int().min(500).max(600_000).default(15_000),
        /** Times a job may lose its worker before it ends as a WORKER_LOST error report. */
        max_stalled: z.number().int().min(0).max(10).default(1),
        /** Jobs one submitter keeps in the queue at once. */
        in_flight: z.number().int().min(1).max(100_000).default(512),
        /** Finished jobs stay this long so a restarted submitter collects results instead of re-grading. */
        keep_s: z
          .number()
          .int()
          .min(60)
          .max(7 * 86_400)
          .default(86_400),
        max_job_kb: z.number().int().min(64).max(65_536).default(8192),
        /** How long the submitter waits out a lost Redis connection (or an empty worker pool for collection) before failing. */
        unavailable_ms: z.number().int().min(1000).max(3_600_000).default(120_000),
      })
      .strict()
      .prefault({}),
    /**
     * Sandbox tuning. `docker_pool`: Docker containers started ahead per limit set, each waiting for its one job
     * (EVIGRADE_DOCKER_POOL); 0 starts one per job. `docker_cell` (EVIGRADE_DOCKER_CELL): jobs one Docker container
     * serves in turn, each cleaned away before the next (docs/sandboxes.md "Docker cells"); 1 is a container per job,
     * where `docker_pool` applies. `python_fork_server` (EVIGRADE_PYTHON_FORK_SERVER=0 turns it
     * off; on by default): Python jobs forked from a test process that imported pytest once, each into its own sandbox
     * (bwrap only; other backends start each job afresh, docs/python-harness.md "Fork server").
     */
    sandbox: z
      .object({
        docker_pool: z.number().int().min(0).max(32).default(2),
        docker_cell: z.number().int().min(1).max(256).default(DOCKER_CELL_JOBS),
        python_fork_server: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    /**
     * The store: a postgres:// URL, or a folder for the embedded Postgres (PGlite); null keeps files only. With it,
     * `serve` keeps batches there; a replica holds a submission for `lease_ms` at a time, renewed while it grades.
     */
    db: z
      .object({
        url: z.string().min(1).nullable().default(null),
        lease_ms: z.number().int().min(1000).max(600_000).default(30_000),
      })
      .strict()
      .prefault({}),
    /** Bearer API keys for `evigrade serve` (EVIGRADE_API_KEYS adds more). */
    api_keys: z.array(z.string().min(16, 'API keys must be at least 16 characters')).default([]),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;
