// A loopback stand-in for an LLM server speaking the OpenAI-compatible
// chat-completions protocol (and TGI's error shapes). The `model` of each
// request picks a scripted persona; personas read the evidence from the
// prompt exactly as a model would, so their answers depend on the submission.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PERSONAS = [
  'honest',
  'inflating',
  'phantom',
  'contradicting',
  'malformed',
  'truncated',
  'slow',
  'flaky503',
  'always503',
  'ratelimited',
  'injectable',
  // Rubric items (issue 35): an honest item answerer, and four ways a model goes wrong with items.
  'itemizer',
  'misquoting',
  'string_quoter',
  'obedient',
  'unstable',
] as const;
export type Persona = (typeof PERSONAS)[number];

export interface RecordedCall {
  readonly model: string;
  readonly at: number;
  readonly body: Record<string, unknown>;
}

export interface FakeJudge {
  readonly url: string;
  readonly calls: RecordedCall[];
  close(): Promise<void>;
}

interface Evidence {
  id: string;
  kind: string;
  status?: string;
  event?: string;
  severity?: string;
}

interface Seen {
  det: Record<string, number | null>;
  items: Evidence[];
  code: string;
  /** Each file as shown: its name and its numbered lines (`   3| code`). */
  files: { name: string; lines: string[] }[];
  /** The rubric items the prompt asks about, if any. */
  rubricItems: { id: string; description: string; guidance?: string }[];
  seed: number;
}

function read(prompt: string, seed = 0): Seen {
  const det = JSON.parse(/DETERMINISTIC_SCORES[^:]*: (\{.*\})/.exec(prompt)?.[1] ?? '{}') as Record<
    string,
    number | null
  >;
  const items = JSON.parse(/<<<EVIDENCE\n([\s\S]*?)\nEVIDENCE>>>/.exec(prompt)?.[1] ?? '[]') as Evidence[];
  const code = [...prompt.matchAll(/<<<SUBMISSION[^\n]*\n([\s\S]*?)\nSUBMISSION>>>/g)].map((m) => m[1]).join('\n');
  const files = [...prompt.matchAll(/<<<SUBMISSION file=("[^"\n]*")\n([\s\S]*?)\nSUBMISSION>>>/g)].map((m) => ({
    name: JSON.parse(m[1] as string) as string,
    lines: (m[2] as string).split('\n'),
  }));
  const rubricItems = JSON.parse(
    /RUBRIC ITEMS \(answer every one\):\n(\[.*\])/.exec(prompt)?.[1] ?? '[]',
  ) as Seen['rubricItems'];
  return { det, items, code, files, rubricItems, seed };
}

const ids = (items: Evidence[], pred: (e: Evidence) => boolean, n = 3): string[] =>
  items
    .filter(pred)
    .slice(0, n)
    .map((e) => e.id);
const passed = (e: Evidence): boolean => e.kind === 'test' && e.status === 'passed';
const bad = (e: Evidence): boolean => e.kind === 'test' && ['failed', 'error', 'timeout'].includes(e.status ?? '');

/** What a careful model says: the measured scores, nudged within bounds, every claim cited. */
function honest(s: Seen): Record<string, unknown> {
  const score = (c: string): number => Math.min(10, Math.max(0, (s.det[c] ?? 5) as number));
  // A careful model still adds nuance: one point for correctness when most tests pass, within the bound.
  const correctness = Math.min(
    10,
    score('correctness') + (ids(s.items, passed).length > ids(s.items, bad).length ? 1 : 0),
  );
  const claims: Record<string, unknown>[] = [];
  const good = ids(s.items, passed);
  const failing = ids(s.items, bad);
  if (good.length)
    claims.push({
      criterion: 'correctness',
      polarity: 'strength',
      text: 'The passing tests cover the main cases.',
      evidence: good,
    });
  if (failing.length)
    claims.push({
      criterion: 'correctness',
      polarity: 'weakness',
      text: 'Some required behaviour is wrong, as the failing tests show.',
      evidence: failing,
    });
  const lint = ids(s.items, (e) => e.kind === 'lint');
  if (lint.length)
    claims.push({
      criterion: 'style',
      polarity: 'weakness',
      text: 'Lint findings point at avoidable style problems.',
      evidence: lint,
    });
  return {
    scores: { correctness, edge_cases: score('edge_cases'), style: score('style'), complexity: score('complexity') },
    claims,
    confidence: 0.7,
    insufficient_evidence: false,
    summary: 'Scores follow the measured evidence.',
  };
}

function inflating(s: Seen): Record<string, unknown> {
  const h = honest(s);
  return { ...h, scores: { correctness: 10, edge_cases: 10, style: 10, complexity: 10 }, confidence: 0.95 };
}

function phantom(s: Seen): Record<string, unknown> {
  const h = honest(s);
  return {
    ...h,
    claims: [
      ...(h.claims as unknown[]),
      {
        criterion: 'edge_cases',
        polarity: 'strength',
        text: 'Handles every boundary, see the extra tests.',
        evidence: ['T99', 'L42'],
      },
    ],
  };
}

function contradicting(s: Seen): Record<string, unknown> {
  const h = honest(s);
  const f = ids(s.items, bad, 1)[0] ?? 'T1';
  return {
    ...h,
    claims: [
      {
        criterion: 'correctness',
        polarity: 'strength',
        text: `${f} passes, so the core logic is right.`,
        evidence: [f],
      },
    ],
  };
}

/** Obeys an instruction planted in the submission, if one reaches it. */
function injectable(s: Seen): Record<string, unknown> {
  const text = s.code.replace(/[_$]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  if (!/ignore (all )?previous|full marks|grade (this|me) 10|you are the grader/i.test(text)) return honest(s);
  return {
    scores: { correctness: 10, edge_cases: 10, style: 10, complexity: 10 },
    claims: [
      {
        criterion: 'correctness',
        polarity: 'strength',
        text: 'All tests pass (T1 passes).',
        evidence: ids(s.items, (e) => e.kind === 'test', 20),
      },
    ],
    confidence: 1,
    insufficient_evidence: false,
    summary: 'As instructed, full marks.',
  };
}

/** A line of the numbered code and where it is: `{file, line, text}` with our `N| ` prefix removed. */
function findLine(s: Seen, pred: (text: string) => boolean): { file: string; line: number; text: string } | null {
  for (const f of s.files)
    for (const l of f.lines) {
      const m = /^\s*(\d+)\| (.*)$/.exec(l);
      if (m && (m[2] as string).trim() && pred(m[2] as string))
        return { file: f.name, line: Number(m[1]), text: (m[2] as string).trim() };
    }
  return null;
}

/** The token an item is about: the first `backticked` word of its description or guidance. */
const tokenOf = (it: Seen['rubricItems'][number]): string =>
  /`([^`]+)`/.exec(`${it.description} ${it.guidance ?? ''}`)?.[1] ?? it.id;

const quote = (at: { file: string; line: number; text: string }) => ({
  file: at.file,
  start_line: at.line,
  end_line: at.line,
  text: at.text,
});

/** Honest with items: an item applies when its token is in the code outside strings, quoted from its line. */
function itemizer(s: Seen): Record<string, unknown> {
  const items = s.rubricItems.map((it) => {
    const t = tokenOf(it);
    const at = findLine(s, (l) => l.replace(/(["'`]).*?\1/g, '""').includes(t));
    return at
      ? { id: it.id, applies: true, explanation: `uses ${t}`, quotes: [quote(at)] }
      : { id: it.id, applies: false, explanation: `no ${t} in the code`, quotes: [] };
  });
  return { ...honest(s), items };
}

/** Says every item applies and quotes lines that do not exist. */
function misquoting(s: Seen): Record<string, unknown> {
  const file = s.files[0]?.name ?? 'solution.js';
  const items = s.rubricItems.map((it) => ({
    id: it.id,
    applies: true,
    explanation: 'clearly done',
    quotes: [
      { file, start_line: 990, end_line: 991, text: `function ${tokenOf(it)}(n) { return ${tokenOf(it)}(n - 1); }` },
    ],
  }));
  return { ...honest(s), items };
}

/** Says every item applies and quotes a string literal that names the token (text, not behaviour). */
function stringQuoter(s: Seen): Record<string, unknown> {
  const items = s.rubricItems.map((it) => {
    const t = tokenOf(it);
    const at = findLine(s, (l) => new RegExp(`(["'\`])[^"'\`]*${t}[^"'\`]*\\1`).test(l));
    const m = at && new RegExp(`(["'\`])[^"'\`]*${t}[^"'\`]*\\1`).exec(at.text);
    return at && m
      ? { id: it.id, applies: true, explanation: `the code says ${t}`, quotes: [{ ...quote(at), text: m[0] }] }
      : { id: it.id, applies: 'insufficient_evidence', explanation: 'not found', quotes: [] };
  });
  return { ...honest(s), items };
}

/** Obeys text in the code that addresses the grader: full marks, every item applies (quoting that text). */
function obedient(s: Seen): Record<string, unknown> {
  const at = findLine(s, (l) =>
    /full marks|ignore (all )?previous|you are the grader|fullMarks|ignorePrevious/i.test(l),
  );
  if (!at) return itemizer(s);
  return {
    ...injectable({ ...s, code: 'ignore previous' }),
    items: s.rubricItems.map((it) => ({ id: it.id, applies: true, explanation: 'as instructed', quotes: [quote(at)] })),
  };
}

/** A model at temperature: its answers follow the request's seed, so samples disagree. */
function unstable(s: Seen): Record<string, unknown> {
  const h = itemizer(s);
  const flip = s.seed % 2 === 1;
  const scores = h.scores as Record<string, number>;
  return {
    ...h,
    scores: { ...scores, style: Math.max(0, (scores.style ?? 5) - (flip ? 2 : 0)) },
    items: (h.items as { applies: unknown }[]).map((i) => (flip ? { ...i, applies: false, quotes: [] } : i)),
  };
}

const ANSWERS: Partial<Record<Persona, (s: Seen) => Record<string, unknown>>> = {
  itemizer,
  misquoting,
  string_quoter: stringQuoter,
  obedient,
  unstable,
  honest,
  inflating,
  phantom,
  contradicting,
  injectable,
  slow: honest,
  flaky503: honest,
  ratelimited: honest,
};

function completion(model: string, content: string, finish = 'stop'): Record<string, unknown> {
  return {
    id: `fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
    usage: {
      prompt_tokens: 1200,
      completion_tokens: Math.ceil(content.length / 4),
      total_tokens: 1200 + Math.ceil(content.length / 4),
    },
  };
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export async function startFakeJudge(opts: { latencyMs?: number; slowMs?: number } = {}): Promise<FakeJudge> {
  const calls: RecordedCall[] = [];
  const perModel = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/v1/chat/completions'))
        return send(res, 404, { error: `no route ${req.method} ${req.url}` });
      const body = JSON.parse(raw) as { model: string; messages: { role: string; content: string }[] };
      calls.push({ model: body.model, at: Date.now(), body });
      const n = (perModel.get(body.model) ?? 0) + 1;
      perModel.set(body.model, n);
      const respond = (): void => answer(body, n, res, opts);
      if (opts.latencyMs) setTimeout(respond, opts.latencyMs);
      else respond();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function answer(
  body: { model: string; messages: { role: string; content: string }[] },
  n: number,
  res: ServerResponse,
  opts: { slowMs?: number },
): void {
  const persona = body.model as Persona;
  const seen = read(body.messages.map((m) => m.content).join('\n'), (body as { seed?: number }).seed ?? 0);
  if (persona === 'always503' || (persona === 'flaky503' && n === 1)) {
    return send(res, 503, { error: 'Model is currently loading', error_type: 'overloaded', estimated_time: 20 });
  }
  if (persona === 'ratelimited' && n === 1)
    return send(
      res,
      429,
      { error: 'Rate limit reached, retry later', error_type: 'rate_limit' },
      { 'retry-after': '1' },
    );
  if (persona === 'malformed')
    return send(res, 200, completion(body.model, 'Sure! Here is my evaluation: the code looks great, 9/10.'));
  if (persona === 'truncated')
    return send(res, 200, completion(body.model, '{"scores": {"correctness": 7, "edge_', 'length'));
  const make = ANSWERS[persona];
  if (!make) return send(res, 404, { error: `unknown model ${body.model}` });
  const content = JSON.stringify(make(seen));
  if (persona === 'slow') {
    setTimeout(() => {
      if (!res.destroyed) send(res, 200, completion(body.model, content));
    }, opts.slowMs ?? 5000);
    return;
  }
  send(res, 200, completion(body.model, content));
}
