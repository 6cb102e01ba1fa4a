import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { fileURLToPath } from 'node:url';
import type { Rubric } from '../src/domain/rubric.js';
import { buildRubric, loadRubric } from '../src/adapters/fs/rubric-loader.js';
import type { BatchPorts } from '../src/batch.js';
import { EvigradeError } from '../src/domain/errors.js';
import { createLocalQueue } from '../src/queue/local.js';
import type { RubricStore } from '../src/server/rubric-store.js';
import { buildApp } from '../src/http/app.js';
import type { AppDeps } from '../src/http/deps.js';
import { createBatchService, type BatchService } from '../src/server/batches.js';
import { createSlots } from '../src/server/slots.js';
import type { Submission } from '../src/domain/submission.js';
import type { Report } from '../src/domain/report.js';
import { availability, openSandbox, type ProcessBackendId, type Sandbox } from '../src/adapters/sandbox/registry.js';
import { collectExpected, type GradePorts } from '../src/engine.js';
import { gradeSubmission } from '../src/pipeline.js';
import type { ExpectedTest } from '../src/domain/queue.js';
import { createAnalysisPool, type AnalysisPort } from '../src/adapters/analysis/pool.js';
import { canonicalJson, sha256 } from '../src/util/hash.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HARNESS_DIR = join(ROOT, 'sandbox', 'dist');

/** Backends that can isolate on this machine; the others are reported as skipped with a reason. */
export async function isolatingBackends(): Promise<{ id: ProcessBackendId; ok: boolean; reason: string }[]> {
  const out = [];
  for (const id of ['bwrap', 'unshare', 'docker'] as const) {
    const a = await availability(id);
    // CI starts dockerd and sets EVIGRADE_REQUIRE_DOCKER: there a missing engine is a failure, not a skip.
    if (!a.ok && id === 'docker' && process.env.EVIGRADE_REQUIRE_DOCKER === '1')
      throw new Error(`Docker is required here: ${a.reason}`);
    out.push({ id, ok: a.ok, reason: a.reason });
  }
  return out;
}

/** The strongest backend that can isolate here, for tests about grading rather than about isolation. */
export async function firstBackend(): Promise<ProcessBackendId> {
  const first = (await isolatingBackends()).find((b) => b.ok);
  if (!first) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');
  return first.id;
}

/** A rubric from inline test sources, through the rubric loader's own validation and hash (so a worker accepts it too). */
export function inlineRubric(tests: Record<string, string>, spec: Record<string, unknown> = {}): Rubric {
  const raw = {
    id: 'inline',
    title: 'Inline',
    language: 'javascript',
    statement: 'inline test rubric',
    entry: './solution',
    tests: Object.keys(tests),
    ...spec,
  };
  const sources = Object.entries(tests).map(([name, source]) => ({ name, source }));
  return buildRubric(raw, 'inline rubric', sources, { path: '/inline/rubric.yaml', referenceDir: null });
}

export function inlineSubmission(files: Record<string, string>, id = 'student'): Submission {
  const list = Object.entries(files).map(([path, content]) => ({
    path,
    content,
    sha256: sha256(content),
    bytes: Buffer.byteLength(content),
  }));
  return { id, files: list, ignored: [], sha256: sha256(canonicalJson(list.map((f) => [f.path, f.sha256]))) };
}

let pool: AnalysisPort | null = null;
/** One warm lint/metrics pool per test file (worker threads end with the vitest worker). */
export const analysisPool = (): AnalysisPort => (pool ??= createAnalysisPool({ threads: 1 }));

const sandboxes = new Map<string, Promise<Sandbox>>();
export function sandboxFor(id: ProcessBackendId): Promise<Sandbox> {
  // A suite's Python jobs run through the fork server (bwrap) as the CLI runs them, unless EVIGRADE_PYTHON_FORK_SERVER=0.
  const pythonForkServer = process.env.EVIGRADE_PYTHON_FORK_SERVER !== '0';
  if (!sandboxes.has(id)) sandboxes.set(id, openSandbox(id, HARNESS_DIR, { pythonForkServer }));
  return sandboxes.get(id) as Promise<Sandbox>;
}

/** Grades inline code for real: collect in the sandbox, then run the submission in it. */
export async function gradeInline(
  backend: ProcessBackendId,
  rubric: Rubric,
  files: Record<string, string>,
): Promise<Report> {
  const sandbox = await sandboxFor(backend);
  const expected = await collectExpected(rubric, sandbox);
  return gradeLocally(inlineSubmission(files), rubric, expected, {
    sandbox,
    analysis: analysisPool(),
    now: () => new Date(0),
    tools: { test: '1' },
    maxResumes: 2,
  });
}

/** The one grading path with the deterministic part in this process and no judge. */
export function gradeLocally(
  sub: Submission,
  rubric: Rubric,
  expected: readonly ExpectedTest[],
  ports: GradePorts,
): Promise<Report> {
  return gradeSubmission({ submission: sub }, rubric, expected, {
    queue: createLocalQueue(ports, 1),
    judge: null,
    now: ports.now,
    tools: ports.tools,
  });
}

/**
 * Real Jest's verdict per test for `files` (a CommonJS test file and what it requires), from Jest's own `expect` and
 * jest-mock run plainly in Node (tests/fakes/plain-jest.cjs): the other side of an agreement test, never written down.
 */
export function plainJest(testFile: string, files: Record<string, string>): Record<string, string> {
  return JSON.parse(runPlainJest(testFile, files, [])) as Record<string, string>;
}

/** As plainJest, with each failing test's message as Jest's error carries it ('' for a test that passes). */
export function plainJestMessages(
  testFile: string,
  files: Record<string, string>,
): Record<string, { status: string; message: string }> {
  return JSON.parse(runPlainJest(testFile, files, ['--messages'])) as Record<
    string,
    { status: string; message: string }
  >;
}

function runPlainJest(testFile: string, files: Record<string, string>, flags: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'plain-jest-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return execFileSync(process.execPath, [join(ROOT, 'tests', 'fakes', 'plain-jest.cjs'), dir, testFile, ...flags], {
    encoding: 'utf8',
  });
}

/**
 * Real pytest's verdict per test function for `files` (Debian's /usr/bin/python3 -m pytest, unsandboxed, run in a
 * temporary folder): the other side of a Python agreement test, never written down. 'passed', or 'failed' for any
 * failure or error.
 */
export function plainPytest(testFile: string, files: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'plain-pytest-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let out: string;
  try {
    out = execFileSync('/usr/bin/python3', ['-m', 'pytest', '-q', '-rA', '-p', 'no:cacheprovider', testFile], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' },
    });
  } catch (e) {
    out = String((e as { stdout?: string }).stdout ?? '');
  }
  const verdicts: Record<string, string> = {};
  for (const m of out.matchAll(/^(PASSED|FAILED|ERROR) \S+::(\w+)/gm)) {
    verdicts[m[2] as string] = m[1] === 'PASSED' ? 'passed' : 'failed';
  }
  return verdicts;
}

/** Status per test name, the shape most assertions compare as a whole object. */
export const statuses = (r: Report): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.name, t.status]));
export const flagCodes = (r: Report): string[] => r.flags.map((f) => f.code).sort();
export const eventKinds = (r: Report): string[] => r.sandbox.violations.map((v) => v.event);
/** The failure message a test's report carries ('' if it has none). */
export const messageOf = (r: Report, name: string): string => r.tests.find((t) => t.name === name)?.message ?? '';

/** A one-rubric store (the rubric collected in this machine's sandbox) and in-process grading ports. */
export async function rubricService(
  rubric: Rubric,
  { maxResumes = 1, concurrency = 2 }: { maxResumes?: number; concurrency?: number } = {},
): Promise<{ ports: BatchPorts; rubrics: RubricStore }> {
  const sandbox = await sandboxFor(await firstBackend());
  const loaded = { rubric, expected: await collectExpected(rubric, sandbox) };
  const rubrics = {
    get: (id: string) => {
      if (id !== rubric.spec.id)
        throw new EvigradeError('RUBRIC_NOT_FOUND', `no rubric "${id}" (known: ${rubric.spec.id})`);
      return loaded;
    },
    list: () => [loaded],
  };
  const queue = createLocalQueue(
    { sandbox, analysis: analysisPool(), now: () => new Date(), tools: {}, maxResumes },
    concurrency,
  );
  return { rubrics, ports: { queue, judge: null, now: () => new Date(), tools: {} } };
}

/** The leap rubric as a service (the HTTP tests' usual one). */
export const leapService = async (): Promise<{ ports: BatchPorts; rubrics: RubricStore }> =>
  rubricService(await loadRubric(join(ROOT, 'rubrics', 'leap', 'rubric.yaml')));

/** The HTTP app over a service with a fresh batch folder (inject only), and its batch service. */
export async function batchApp(
  service: { ports: BatchPorts; rubrics: RubricStore },
  key: string,
  extra: Pick<AppDeps, 'history'> = {},
): Promise<{ a: Awaited<ReturnType<typeof buildApp>>; batches: BatchService }> {
  const { ports, rubrics } = service;
  const slots = createSlots(ports.queue.capacity, 4);
  const batches = createBatchService(
    mkdtempSync(join(tmpdir(), 'evigrade-batch-app-')),
    rubrics,
    slots,
    ports,
    pino({ level: 'silent' }),
  );
  const a = await buildApp({
    ...extra,
    rubrics,
    slots,
    ports,
    apiKeys: [key],
    ratePerMinute: 1000,
    logger: false,
    batches,
    judgeInfo: () => ({ configured: 0 }),
  });
  return { a, batches };
}

/** Resolves when the batch is done: its "done" event, or its status if it finished before we listened. */
export async function batchFinished(batches: BatchService, id: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const off = batches.subscribe(id, (e) => e.type === 'done' && (off(), resolve()));
    void batches.status(id).then((s) => s.state === 'done' && (off(), resolve()));
  });
}
