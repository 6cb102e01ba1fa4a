// The V8 and node flags the grader runs with and starts its JavaScript jobs with, in one place: most are paid for in
// speed (bench/README.md), two in what a job's JavaScript is (docs/harness.md, "What a job's JavaScript is"). The
// paths a job may touch (node's permission model) are the sandbox's: adapters/sandbox/process-runner.ts.

/** V8's default interrupt budget (node 20): how much a function runs before TurboFan considers optimising it. */
const V8_INTERRUPT_BUDGET = 67_584;

/**
 * WebAssembly (ruff and tree-sitter in the lint threads) is compiled by Liftoff, V8's baseline compiler, only. At the
 * default tiering budget TurboFan recompiled most of ruff's 10 MB module in the background, ≈ 5 s of CPU in every
 * grader run that analysed Python; at a 1,100× budget (`--wasm-tiering-budget=2000000000`, kept until 2026-11-27) it
 * still did after a few dozen files: ≈ 1 s of a background thread for 24 checks of `say`, ≈ 1.4 s for 240, and it made
 * the checks themselves slower meanwhile (2,400 checks: 3.4 s + 0.55 s in the background against 0.87 s on Liftoff
 * alone). A Python class of 24 paid ≈ 80 ms a submission for it (bench/README.md, issue 36, the floor pass). A file's
 * analysis is bounded by its CPU budget either way.
 */
const WASM_TIERING = '--liftoff-only';

/**
 * The grader's own flags, set by bin/evigrade.js before the grader loads. Most commands live for seconds: at V8's
 * default budget, TurboFan spends a background thread optimising functions (ESLint's, zod's, our own) the run ends
 * before they pay back. 8× the default budget cut the grader's own CPU on a class of 24 by a fifth to a quarter; 32×
 * took another 1–3 % off classes of 120 and 240 (ESLint's code in the lint thread is the longest-running) and changed
 * nothing on 24 (bench/README.md, eighth pass). Code that stays hot, as in `serve`, is optimised a little later.
 */
export const GRADER_V8_FLAGS = `--interrupt-budget=${32 * V8_INTERRUPT_BUDGET} ${WASM_TIERING}`;

/**
 * A job's optimising compiler starts after 8× the default budget. A job lives for ~0.1 s: at the default, TurboFan
 * compiles the harness's and expect's warm functions on a background thread and the job exits before that code pays
 * back (≈ 14 ms of a 95 ms `say` job, bench/README.md). Code that really is hot (a student's long loop) still reaches
 * TurboFan a few milliseconds later, at the same cost.
 */
const JOB_TIER_UP = `--interrupt-budget=${8 * V8_INTERRUPT_BUDGET}`;

/**
 * Four features node 20's V8 ships behind flags that it adds to a context as it deserialises one: onto the
 * intrinsics the harness's start-up snapshot has already frozen (lockdown() runs in its builder, ≈ 20 ms of every
 * job's CPU; bench/README.md), which aborts node. Off in every JavaScript job on every backend, so what a
 * submission can use does not depend on how its job started: the toSorted family comes from
 * sandbox/harness/es2023.cjs instead; RegExp's `v` flag, resizable ArrayBuffers and Intl.NumberFormat v3
 * (formatRange, roundingMode…) are not available (docs/harness.md, "What a job's JavaScript is").
 */
export const JOB_V8_FEATURES: readonly string[] = [
  '--no-harmony-change-array-by-copy',
  '--no-harmony-rab-gsab',
  '--no-harmony-regexp-unicode-sets',
  '--no-harmony-intl-number-format-v3',
];

/**
 * Node 20.20's V8 (the CVE-2026-21717 fix) derives its string-hash secrets from a fresh random seed at every start: a
 * search for three 64-bit primes by Miller-Rabin, then a rehash of every string in the snapshot, ≈ 4 ms of a job's
 * CPU (`perf`: `detail::sprp` alone was 10–13 % of a bare `node -e 0`; bench/README.md). A job keeps the seed its
 * snapshot was made with instead. That seed only guards the job's own hash tables against flooding, and a submission
 * that floods them slows its own job, which its time limit bounds; Math.random and crypto are seeded apart and still
 * differ per job (tests/integration/harness-snapshot.test.ts). The grader keeps a random seed: it parses what jobs
 * and users send.
 */
const JOB_HASH_SEED = '--no-rehash-snapshot';

/**
 * A JavaScript job's node flags for its memory limit: the V8 heap at 75 % of it (the cgroup's kill stays the
 * backstop), and the flags above. The start-up snapshot and the code cache are made per set of these flags.
 */
export function jobNodeArgs(memoryMb: number): string[] {
  const heap = Math.max(32, Math.floor(memoryMb * 0.75));
  return [
    `--max-old-space-size=${heap}`,
    '--max-semi-space-size=16',
    JOB_TIER_UP,
    '--unhandled-rejections=warn',
    JOB_HASH_SEED,
    ...JOB_V8_FEATURES,
  ];
}
