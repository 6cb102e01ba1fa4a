import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ReportSchema, type Report, type Summary } from '../../src/domain/report.js';
import { CLIENT_JS, CSP, embedJson, renderHtml } from '../../src/report/html.js';
import { histogramSvg, overview } from '../../src/report/overview.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EVIL = '</script><script>alert(1)</script><img src=x onerror=alert(1)>"\'&\u202E\u200B';
const HASH = `sha256:${'a'.repeat(64)}`;
const OPTS = { title: 'Batch <b>"T"</b>', generatedAt: '2026-01-02T03:04:05.000Z' };

// ---------------------------------------------------------------- fixtures

function report(id: string, over: Partial<Report> = {}, final = 7.5, style: number | null = 8): Report {
  const det = { correctness: 7.5, edge_cases: 5, style, complexity: 10, total: final };
  const r: Report = {
    schemaVersion: 1,
    status: 'graded',
    submission: {
      id,
      sha256: 'b'.repeat(64),
      files: [{ path: 'leap.js', sha256: 'c'.repeat(64), bytes: 120 }],
      ignored: [],
    },
    rubric: {
      id: 'leap',
      title: 'Leap year',
      sha256: 'd'.repeat(64),
      criteria: { correctness: 0.6, edge_cases: 0.2, style: 0.1, complexity: 0.1 },
      complexity: { max_loop_nesting: 2, max_cyclomatic: 10 },
      maxAdjustment: 2,
    },
    sandbox: { backend: 'bwrap', limits: { timeout_ms: 5000 }, runs: 1, violations: [] },
    tests: [
      {
        id: 'T1',
        name: 'leap > 2000',
        path: ['leap', '2000'],
        file: 'leap.spec.js',
        status: 'passed',
        durationMs: 3,
        message: '',
        weight: 1,
        edgeCase: false,
      },
      {
        id: 'T2',
        name: 'leap > 1900',
        path: ['leap', '1900'],
        file: 'leap.spec.js',
        status: 'failed',
        durationMs: 4,
        message: 'expect(received).toBe(expected)\n\nExpected: false\nReceived: true',
        weight: 1,
        edgeCase: true,
      },
    ],
    evidence: {
      hash: HASH,
      items: [
        {
          id: 'L1',
          kind: 'lint',
          rule: 'eslint/no-var',
          severity: 'warning',
          file: 'leap.js',
          line: 2,
          column: 3,
          message: 'Unexpected var.',
          weight: 1,
        },
        {
          id: 'C1',
          kind: 'complexity',
          rule: 'function',
          file: 'leap.js',
          name: 'isLeap',
          line: 1,
          endLine: 5,
          cyclomatic: 4,
          maxLoopNesting: 0,
          recursive: false,
          lines: 5,
          params: 1,
          overLimit: false,
        },
        {
          id: 'C2',
          kind: 'complexity',
          rule: 'policy.banned_import',
          file: 'leap.js',
          line: 1,
          column: 1,
          message: 'imports fs',
        },
      ],
    },
    scores: {
      deterministic: det,
      llm: null,
      final,
      blend: {
        weights: { deterministic: 0.6, llm: 0.4 },
        applied: false,
        reason: 'LLM weight 0: judge skipped',
        perCriterion: { correctness: 7.5, edge_cases: 5, style, complexity: 10 },
      },
      basis: 'deterministic only',
    },
    flags: [],
    judge: {
      status: 'skipped',
      reason: 'no judge',
      model: null,
      promptVersion: 'v1',
      cached: false,
      attempts: [],
      output: null,
      tokens: { prompt: 0, completion: 0 },
      costUsd: 0,
    },
    timings: { totalMs: 10 },
    errors: [],
    tools: { evigrade: '0.1.0' },
    generatedAt: '2026-01-02T03:04:05.000Z',
    ...over,
  };
  return ReportSchema.parse(r);
}

const judged = (claimText: string, evidence: string[]): Report['judge'] => ({
  status: 'answered',
  reason: 'answered',
  model: 'm/x',
  promptVersion: 'v1',
  cached: true,
  attempts: [
    {
      model: 'm/x',
      judge: 'hf',
      outcome: 'ok',
      latencyMs: 900,
      promptTokens: 1000,
      completionTokens: 200,
      status: 200,
      error: null,
    },
  ],
  output: {
    scores: { correctness: 8, edge_cases: 5, style: 8, complexity: 10 },
    claims: [{ criterion: 'correctness', polarity: 'weakness', text: claimText, evidence }],
    confidence: 0.5,
    insufficient_evidence: false,
    summary: `summary ${claimText}`,
  },
  tokens: { prompt: 1000, completion: 200 },
  costUsd: 0.0012,
});

function batch(): Report[] {
  const alice = report('alice', {}, 10);
  const bob = report('bob', {}, 2, null);
  const rejected = report('rej-carol', { status: 'rejected', tests: [], evidence: { hash: HASH, items: [] } }, 0, null);
  const evilId = `evil${EVIL}/x`;
  const base = report(evilId, {}, 9.5);
  const evil = report(
    evilId,
    {
      submission: { ...base.submission, files: [{ path: `sol${EVIL}.js`, sha256: 'e'.repeat(64), bytes: 9 }] },
      tests: base.tests.map((t) => ({ ...t, message: `Expected: 1\nReceived: ${EVIL}` })),
      sandbox: { ...base.sandbox, violations: [{ id: 'S1', event: 'tampering', detail: EVIL }] },
      evidence: {
        hash: HASH,
        items: base.evidence.items.map((i) => (i.kind === 'lint' ? { ...i, message: EVIL, file: `sol${EVIL}.js` } : i)),
      },
      flags: [
        {
          code: 'judge.contradicted_claim',
          severity: 'critical',
          message: EVIL,
          evidence: ['T2', 'S1', EVIL],
          claim: `T2 passes ${EVIL}`,
        },
      ],
    },
    9.5,
  );
  evil.judge = judged(`T1 shows ${EVIL}`, ['T1', 'L1', 'C9']);
  return [alice, bob, rejected, ReportSchema.parse(evil)];
}

// ---------------------------------------------------------------- a minimal DOM that refuses markup

const TAGS = new Set([
  'section',
  'h2',
  'h3',
  'h4',
  'div',
  'p',
  'dl',
  'dt',
  'dd',
  'ul',
  'li',
  'a',
  'span',
  'code',
  'pre',
  'q',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'button',
  'input',
  'select',
  'option',
]);
const ATTRS = /^(class|id|href|title|type|placeholder|value|aria-label|aria-sort|data-[a-z-]+)$/;

class FNode {
  data = '';
  hidden = false;
  value = '';
  attrs = new Map<string, string>();
  children: FNode[] = [];
  parentNode: FNode | null = null;
  listeners = new Map<string, (() => void)[]>();
  constructor(
    readonly tag: string,
    private readonly dom: FakeDom,
  ) {}
  get lastChild(): FNode | null {
    return this.children[this.children.length - 1] ?? null;
  }
  appendChild(c: FNode): FNode {
    if (!(c instanceof FNode)) throw new TypeError('appendChild of a non-node');
    if (c.parentNode) c.parentNode.children.splice(c.parentNode.children.indexOf(c), 1);
    c.parentNode = this;
    this.children.push(c);
    return c;
  }
  setAttribute(k: string, v: unknown): void {
    this.dom.attrLog.push([k, String(v)]);
    this.attrs.set(k, String(v));
  }
  getAttribute(k: string): string | null {
    return this.attrs.get(k) ?? null;
  }
  get textContent(): string {
    return this.tag === '#text' ? this.data : this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    for (const c of this.children) c.parentNode = null;
    this.children = [];
    if (String(v) !== '') this.appendChild(this.dom.document.createTextNode(String(v)));
  }
  set innerHTML(_v: string) {
    throw new Error('innerHTML is forbidden');
  }
  set outerHTML(_v: string) {
    throw new Error('outerHTML is forbidden');
  }
  insertAdjacentHTML(): never {
    throw new Error('insertAdjacentHTML is forbidden');
  }
  addEventListener(t: string, f: () => void): void {
    this.listeners.set(t, [...(this.listeners.get(t) ?? []), f]);
  }
  fire(t: string): void {
    for (const f of this.listeners.get(t) ?? []) f();
  }
  get classList() {
    const list = (): string[] => (this.attrs.get('class') ?? '').split(/\s+/).filter(Boolean);
    return {
      add: (c: string) => this.attrs.set('class', [...new Set([...list(), c])].join(' ')),
      remove: (c: string) =>
        this.attrs.set(
          'class',
          list()
            .filter((x) => x !== c)
            .join(' '),
        ),
      contains: (c: string) => list().includes(c),
    };
  }
  *walk(): Generator<FNode> {
    yield this;
    for (const c of this.children) yield* c.walk();
  }
  all(pred: (n: FNode) => boolean): FNode[] {
    return [...this.walk()].filter(pred);
  }
  cls(c: string): FNode[] {
    return this.all((n) => n.classList.contains(c));
  }
  attr(k: string, v?: string): FNode[] {
    return this.all((n) => n.attrs.has(k) && (v === undefined || n.attrs.get(k) === v));
  }
}

class FakeDom {
  attrLog: [string, string][] = [];
  created: string[] = [];
  errors: unknown[] = [];
  winListeners = new Map<string, (() => void)[]>();
  location = { hash: '' };
  app: FNode;
  data: FNode;
  document = {
    createElement: (tag: string) => {
      this.created.push(tag);
      return new FNode(tag, this);
    },
    createTextNode: (s: string) => Object.assign(new FNode('#text', this), { data: String(s) }),
    getElementById: (id: string) =>
      id === 'data' ? this.data : (this.app.all((n) => n.attrs.get('id') === id)[0] ?? null),
    write: () => {
      throw new Error('document.write is forbidden');
    },
  };
  constructor(html: string, hash = '') {
    this.location.hash = hash;
    this.app = new FNode('main', this);
    this.app.attrs.set('id', 'app');
    const hist = this.app.appendChild(new FNode('div', this));
    hist.attrs.set('id', 'histogram');
    this.data = this.document.createTextNode(extract(html).json);
    const ctx: Record<string, unknown> = {
      document: this.document,
      location: this.location,
      console: {
        error: (...a: unknown[]) => this.errors.push(a),
        warn: (...a: unknown[]) => this.errors.push(a),
        log: () => {},
      },
      addEventListener: (t: string, f: () => void) =>
        this.winListeners.set(t, [...(this.winListeners.get(t) ?? []), f]),
      scrollTo: () => {},
    };
    ctx.window = ctx;
    vm.runInNewContext(extract(html).script, ctx);
  }
  navigate(hash: string): void {
    this.location.hash = hash;
    for (const f of this.winListeners.get('hashchange') ?? []) f();
  }
  byId(id: string): FNode {
    const n = this.document.getElementById(id);
    if (!n) throw new Error(`no #${id}`);
    return n;
  }
  rows(): FNode[] {
    return this.byId('submissions').all((n) => n.tag === 'tr' && n.attrs.has('data-id'));
  }
  visibleIds(): string[] {
    return this.rows()
      .filter((r) => !r.hidden)
      .map((r) => r.attrs.get('data-id') ?? '');
  }
  sections(): FNode[] {
    return this.app.cls('submission');
  }
}

function extract(html: string): { json: string; script: string } {
  const json = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined || script === undefined) throw new Error('scripts not found');
  return { json, script };
}

// ---------------------------------------------------------------- tests

describe('renderHtml: markup and embedding', () => {
  const reports = batch();
  const html = renderHtml(reports, null, OPTS);

  it('emits exactly two script elements and no markup from report strings', () => {
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('</script><script>alert');
    expect(html).not.toMatch(/<img|<b>/i);
    const outsideJson = html.replace(extract(html).json, '');
    expect(outsideJson).not.toMatch(/alert\(1\)|onerror|evil|sol</);
    expect(html).toContain('<title>Batch &#60;b&#62;&#34;T&#34;&#60;/b&#62;</title>');
  });
  it('embeds the reports as JSON that parses back to the same reports', () => {
    const { json } = extract(html);
    expect(json).not.toMatch(/[<>&\u2028\u2029\u202E\u200B]/);
    const data = JSON.parse(json) as {
      reports: Report[];
      summary: unknown;
      title: string;
      overview: { count: number };
    };
    expect(data.reports).toEqual(reports);
    expect(data.summary).toBeNull();
    expect(data.title).toBe(OPTS.title);
    expect(data.overview.count).toBe(4);
    expect(JSON.parse(embedJson({ s: EVIL + '\u2028\u2029<!--' }))).toEqual({ s: `${EVIL}\u2028\u2029<!--` });
  });
  it('has no raw bidi or zero-width characters anywhere in the file', () => {
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF]/);
  });
  it('uses no markup sinks and no eval in the script, sets the CSP, and references nothing external', () => {
    const { script } = extract(html);
    expect(script).toBe(CLIENT_JS);
    expect(script).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|setTimeout\(['"]/,
    );
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
    expect(CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:");
    expect(html).not.toMatch(/https?:\/\/|url\(|@import/i);
  });
});

describe('renderHtml: the page script, run against a DOM that refuses markup', () => {
  const reports = batch();
  const evilId = reports[3]!.submission.id;
  const html = renderHtml(reports, null, OPTS);

  it('builds the overview and a section per submission without errors', () => {
    const dom = new FakeDom(html);
    expect(dom.errors).toEqual([]);
    expect(dom.byId('overview').hidden).toBe(false);
    expect(dom.sections().map((s) => s.attrs.get('data-id'))).toEqual(reports.map((r) => r.submission.id));
    expect(dom.sections().every((s) => s.hidden)).toBe(true);
    const stat = (k: string) => dom.app.attr('data-stat', k)[0]?.textContent;
    expect([
      stat('count'),
      stat('graded'),
      stat('rejected'),
      stat('errored'),
      stat('mean-final'),
      stat('flagged'),
    ]).toEqual(['4', '3', '1', '0', '7.17', '1']);
    expect(
      dom
        .byId('flagged')
        .all((n) => n.tag === 'li')
        .map((n) => n.attrs.get('data-id')),
    ).toEqual([evilId]);
    expect(dom.byId('histogram').parentNode?.attrs.get('data-part')).toBe('histogram');
  });
  it('creates only plain elements, safe attributes, fragment links and sanitised ids', () => {
    const dom = new FakeDom(html);
    expect(dom.created.filter((t) => !TAGS.has(t))).toEqual([]);
    expect(dom.attrLog.filter(([k]) => !ATTRS.test(k))).toEqual([]);
    expect(
      dom.attrLog.filter(([k, v]) => k === 'href' && !/^#\/(s\/[A-Za-z0-9%._~!*'()-]+(\/[A-Za-z0-9]+)?)?$/.test(v)),
    ).toEqual([]);
    expect(dom.attrLog.filter(([k, v]) => k === 'id' && !/^[A-Za-z0-9_-]+$/.test(v))).toEqual([]);
    expect(
      dom
        .rows()
        .map((r) => r.attrs.get('data-id'))
        .sort(),
    ).toEqual(reports.map((r) => r.submission.id).sort());
  });
  it('shows hostile text as text, with bidi and zero-width characters as visible markers', () => {
    const dom = new FakeDom(html);
    const texts = dom.app.all((n) => n.tag === '#text').map((n) => n.data);
    expect(texts.filter((t) => /[\u202E\u200B]/.test(t))).toEqual([]);
    const sec = dom.sections()[3]!;
    const visible =
      '</script><script>alert(1)</script><img src=x onerror=alert(1)>"\'&\u27E8U+202E\u27E9\u27E8U+200B\u27E9';
    expect(sec.all((n) => n.tag === 'h2')[0]?.textContent).toBe(`evil${visible}/x`);
    expect(sec.cls('ctl').map((n) => n.textContent)).toContain('\u27E8U+202E\u27E9');
    expect(
      sec
        .attr('data-part', 'tests')[0]
        ?.all((n) => n.tag === 'pre')
        .map((n) => n.textContent),
    ).toContain(`Expected: 1\nReceived: ${visible}`);
    expect(sec.attr('data-part', 'lint')[0]?.textContent).toContain(`sol${visible}.js:2:3`);
    expect(sec.cls('claim-text')[0]?.textContent).toBe(`T1 shows ${visible}`);
    expect(sec.attr('data-part', 'hashes')[0]?.textContent).toContain(`sol${visible}.js`);
  });
  it('routes #/s/<id> to one submission and #/ back to the overview', () => {
    const dom = new FakeDom(html, `#/s/${encodeURIComponent(evilId)}`);
    expect(dom.sections().map((s) => s.hidden)).toEqual([true, true, true, false]);
    expect(dom.byId('overview').hidden).toBe(true);
    dom.navigate('#/s/bob');
    expect(dom.sections().map((s) => s.hidden)).toEqual([true, false, true, true]);
    dom.navigate('#/');
    expect(dom.byId('overview').hidden).toBe(false);
    expect(dom.sections().every((s) => s.hidden)).toBe(true);
    dom.navigate('#/s/no-such-id');
    expect(dom.byId('overview').hidden).toBe(false);
    const row = dom.rows().find((r) => r.attrs.get('data-id') === evilId)!;
    expect(row.all((n) => n.tag === 'a')[0]?.attrs.get('href')).toBe(`#/s/${encodeURIComponent(evilId)}`);
  });
  it('links each cited evidence id to its item, which the route highlights', () => {
    const dom = new FakeDom(html);
    const sec = dom.sections()[3]!;
    const links = sec.cls('claims')[0]!.all((n) => n.tag === 'a');
    expect(links.map((a) => [a.textContent, a.attrs.get('class')])).toEqual([
      ['T1', 'ev'],
      ['L1', 'ev'],
      ['C9', 'ev missing'],
    ]);
    dom.navigate(links[1]!.attrs.get('href')!);
    expect(sec.hidden).toBe(false);
    const target = dom.byId('s3-L1');
    expect(target.classList.contains('hl')).toBe(true);
    expect(target.attrs.get('data-evidence')).toBe('L1');
    dom.navigate(links[0]!.attrs.get('href')!);
    expect(target.classList.contains('hl')).toBe(false);
    expect(dom.byId('s3-T1').classList.contains('hl')).toBe(true);
    const flagLinks = sec
      .attr('data-part', 'flags')[0]!
      .all((n) => n.tag === 'a')
      .map((a) => a.attrs.get('href'));
    expect(flagLinks).toEqual([`#/s/${encodeURIComponent(evilId)}/T2`, `#/s/${encodeURIComponent(evilId)}/S1`]);
    expect(dom.byId('s3-S1').tag).toBe('tr');
    expect(sec.cls('bad-evidence').map((n) => n.textContent)).toEqual([
      EVIL.replace('\u202E\u200B', '\u27E8U+202E\u27E9\u27E8U+200B\u27E9'),
    ]);
  });
  it('sorts numerically (nulls last) and toggles direction on a second click', () => {
    const dom = new FakeDom(html);
    expect(dom.visibleIds()[0]).toBe(evilId); // flagged first
    const th = (k: string) => dom.byId('submissions').attr('data-sort', k)[0]!;
    th('final').fire('click');
    expect(dom.visibleIds()).toEqual(['rej-carol', 'bob', evilId, 'alice']); // 0, 2, 9.5, 10: not "10" < "2"
    expect(th('final').attrs.get('aria-sort')).toBe('ascending');
    th('final').fire('click');
    expect(dom.visibleIds()).toEqual(['alice', evilId, 'bob', 'rej-carol']);
    expect(th('final').attrs.get('aria-sort')).toBe('descending');
    th('style').fire('click');
    expect(dom.visibleIds()).toEqual(['alice', evilId, 'bob', 'rej-carol']); // 8, 8, null, null
    expect(th('final').attrs.get('aria-sort')).toBe('none');
    th('id').fire('click');
    expect(dom.visibleIds()).toEqual(['alice', 'bob', evilId, 'rej-carol']);
  });
  it('filters by id text and by status', () => {
    const dom = new FakeDom(html);
    const filter = dom.byId('filter');
    const status = dom.byId('status');
    expect(status.all((n) => n.tag === 'option').map((o) => o.attrs.get('value'))).toEqual([
      'all',
      'graded',
      'rejected',
      'error',
      'flagged',
    ]);
    filter.value = 'B';
    filter.fire('input');
    expect(dom.visibleIds()).toEqual(['bob']);
    expect(dom.byId('shown').textContent).toBe('1 of 4 shown');
    filter.value = '';
    status.value = 'flagged';
    status.fire('change');
    expect(dom.visibleIds()).toEqual([evilId]);
    status.value = 'rejected';
    status.fire('change');
    expect(dom.visibleIds()).toEqual(['rej-carol']);
    status.value = 'error';
    status.fire('change');
    expect(dom.visibleIds()).toEqual([]);
  });
  it('survives partial and malformed reports without throwing', () => {
    const odd = [
      {},
      {
        status: 'graded',
        submission: null,
        tests: 'x',
        flags: [null, { severity: 'warning' }],
        judge: { output: { claims: [null, { evidence: 'T1' }] } },
      },
      {
        status: 'error',
        scores: { final: 'NaN', blend: null },
        evidence: { items: [null, { kind: 'lint' }, { kind: 'complexity', rule: 'function', id: '<x>' }] },
      },
    ] as unknown as Report[];
    const page = renderHtml(odd, null, OPTS);
    const dom = new FakeDom(page, '#/s/~1');
    expect(dom.errors).toEqual([]);
    expect(dom.sections()).toHaveLength(3);
    expect(dom.sections()[1]!.hidden).toBe(false);
    expect(dom.attrLog.filter(([k, v]) => k === 'id' && !/^[A-Za-z0-9_-]+$/.test(v))).toEqual([]);
  });
});

describe('renderHtml: the source with its evidence inline (issue 16)', () => {
  const SRC =
    "import fs from 'fs';\nexport const isLeap = (y) => {\n  var r = y % 4 === 0; // \u202Eevil\n  return r;\n};\n";
  const frames =
    'Error: expect(received).toBe(expected)\n\nExpected: false\nReceived: true\n    at isLeap (file:///job/sub/leap.js:3:11)\n    at file:///job/sub/leap.spec.js:16:26\n    at /evigrade/boot.cjs:40:3';
  const base = report('alice');
  const withSource = report('alice', {
    submission: {
      ...base.submission,
      files: [{ path: 'leap.js', sha256: 'c'.repeat(64), bytes: SRC.length, text: SRC }],
    },
    tests: base.tests.map((t) => (t.id === 'T2' ? { ...t, message: frames } : t)),
    evidence: {
      hash: HASH,
      items: base.evidence.items.map((i) =>
        i.kind === 'lint'
          ? { ...i, line: 3 }
          : i.kind === 'complexity' && i.rule === 'function'
            ? { ...i, line: 2 }
            : i,
      ),
    },
    flags: [
      { code: 'score.unmeasured', severity: 'info', message: 'info one', evidence: [] },
      { code: 'sandbox.process_exit', severity: 'warning', message: 'warning one', evidence: [] },
      { code: 'judge.contradicted_claim', severity: 'critical', message: 'critical one', evidence: ['T2'] },
    ],
  });
  const rejected = report(
    'rej',
    {
      status: 'rejected',
      tests: [],
      evidence: { hash: HASH, items: [] },
      errors: [{ code: 'INTAKE_BINARY', message: 'x' }],
    },
    0,
    null,
  );
  const unanalysed = report('blocked', {
    evidence: {
      hash: HASH,
      items: [
        {
          id: 'C1',
          kind: 'complexity',
          rule: 'file',
          file: 'leap.js',
          loc: 0,
          measured: false,
          metrics: false,
          maxLoopNesting: 0,
          maxCyclomatic: 1,
          blocked: 'too_large',
        },
      ],
    },
    scores: {
      ...base.scores,
      unmeasured: [
        { criterion: 'style', reason: 'leap.js is over the analysis size limit' },
        { criterion: 'complexity', reason: 'leap.js is over the analysis size limit' },
      ],
    },
  });
  const dom = new FakeDom(renderHtml([withSource, rejected, unanalysed], null, OPTS), '#/s/alice');
  const sec = dom.sections()[0]!;
  const source = sec.attr('data-part', 'source')[0]!;
  const line = (n: number) => dom.byId(`s0-f0n${n}`);
  const notes = (n: number) => {
    const l = line(n);
    const next = l.parentNode!.children[l.parentNode!.children.indexOf(l) + 1];
    return next?.classList.contains('notes') ? next.cls('note').map((x) => x.attrs.get('data-evidence')) : [];
  };

  it('shows every line with its number and highlighted tokens, hostile characters as markers', () => {
    expect(dom.errors).toEqual([]);
    expect(source.cls('line').map((l) => l.cls('ln')[0]?.textContent)).toEqual(['1', '2', '3', '4', '5']);
    expect(line(2).cls('tx')[0]?.textContent).toBe('export const isLeap = (y) => {');
    expect(
      line(2)
        .cls('tk-kw')
        .map((n) => n.textContent),
    ).toEqual(['export', 'const']);
    expect(
      line(1)
        .cls('tk-str')
        .map((n) => n.textContent),
    ).toEqual(["'fs'"]);
    expect(
      line(3)
        .cls('tk-com')
        .map((n) => n.textContent),
    ).toEqual(['// \u27E8U+202E\u27E9evil']);
  });
  it('puts the evidence on its lines, most serious first, and links each note to its row and each row back to the line', () => {
    expect([notes(1), notes(2), notes(3), notes(4)]).toEqual([['C2'], ['C1'], ['T2', 'L1'], []]);
    const note = line(3)
      .parentNode!.cls('note')
      .find((x) => x.attrs.get('data-evidence') === 'L1')!;
    expect(note.all((n) => n.tag === 'a')[0]?.attrs.get('href')).toBe('#/s/alice/L1');
    expect(
      dom
        .byId('s0-L1')
        .all((n) => n.tag === 'a')
        .map((a) => [a.textContent, a.attrs.get('href')]),
    ).toEqual([['leap.js:3:3', '#/s/alice/f0n3']]);
    expect(
      dom
        .byId('s0-C1')
        .all((n) => n.tag === 'a')
        .map((a) => a.attrs.get('href')),
    ).toEqual(['#/s/alice/f0n2']);
    dom.navigate('#/s/alice/f0n3');
    expect([sec.hidden, line(3).classList.contains('hl')]).toEqual([false, true]);
    dom.navigate('#/s/alice/L1');
    expect([line(3).classList.contains('hl'), dom.byId('s0-L1').classList.contains('hl')]).toEqual([false, true]);
  });
  it("names hidden tests by name, never by path, and links the student's frames to their lines", () => {
    const msg = dom.byId('s0-T2').all((n) => n.tag === 'pre')[0]!;
    expect(msg.textContent).toBe(
      'Error: expect(received).toBe(expected)\n\nExpected: false\nReceived: true\n    at isLeap (leap.js:3)\n    in the test \u201Cleap > 1900\u201D',
    );
    expect(msg.all((n) => n.tag === 'a').map((a) => a.attrs.get('href'))).toEqual(['#/s/alice/f0n3']);
    expect(sec.textContent).not.toMatch(/leap\.spec\.js:|\/job\/|boot\.cjs/);
  });
  it('orders flags critical, warning, info', () => {
    expect(
      sec
        .attr('data-part', 'flags')[0]!
        .all((n) => n.tag === 'tr' && n.attrs.has('data-severity'))
        .map((r) => r.attrs.get('data-severity')),
    ).toEqual(['critical', 'warning', 'info']);
  });
  it('says "not measured" and why where analysis never ran, never "None."', () => {
    const texts = (i: number) =>
      ['lint', 'functions', 'policy'].map((p) => dom.sections()[i]!.attr('data-part', p)[0]!.textContent);
    expect(texts(1)).toEqual([
      'Lint findings: not measuredNot measured: the submission was rejected (INTAKE_BINARY), so it was never analysed',
      'Complexity per function: not measuredNot measured: the submission was rejected (INTAKE_BINARY), so it was never analysed',
      'Policy findings: not measuredNot measured: the submission was rejected (INTAKE_BINARY), so it was never analysed',
    ]);
    expect(texts(2)).toEqual([
      'Lint findings: not measuredNot measured: leap.js is over the analysis size limit',
      'Complexity per function: not measuredNot measured: leap.js is over the analysis size limit',
      'Policy findings: not measuredNot measured: leap.js is over the analysis size limit',
    ]);
    expect(texts(0).map((t) => t.split('(')[0])).toEqual([
      'Lint findings ',
      'Complexity per function ',
      'Policy findings ',
    ]);
  });
  it('builds a source view the first time its submission is shown, once', () => {
    const source2 = () => dom.sections()[2]!.attr('data-part', 'source')[0]!;
    expect(source2().children.map((c) => c.tag)).toEqual(['h3']);
    dom.navigate('#/s/blocked');
    expect(source2().children.map((c) => c.tag)).toEqual(['h3', 'h4', 'p']);
    dom.navigate('#/');
    dom.navigate('#/s/blocked');
    expect(source2().children.map((c) => c.tag)).toEqual(['h3', 'h4', 'p']);
  });
  it('says when a report predates the source field', () => {
    const old = new FakeDom(renderHtml([report('old')], null, OPTS), '#/s/old');
    expect(old.sections()[0]!.attr('data-part', 'source')[0]!.textContent).toBe(
      'Sourceleap.jsNot in this report (reports written before the source field carry only the file hashes).',
    );
  });
});

describe('overview statistics', () => {
  it('counts, bins graded finals, averages criteria over measured values and sums judge usage', () => {
    const reports = batch();
    reports[0] = { ...reports[0]!, judge: judged('fine', ['T1']) };
    const ov = overview(reports);
    expect([ov.count, ov.graded, ov.rejected, ov.errored, ov.meanFinal]).toEqual([4, 3, 1, 0, 7.17]);
    expect(ov.histogram).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 2]);
    expect(ov.criteria.style).toEqual({ mean: 8, n: 2 });
    expect(ov.criteria.correctness).toEqual({ mean: 7.5, n: 3 });
    expect(ov.flagged).toEqual([
      { index: 3, id: reports[3]!.submission.id, severity: 'critical', codes: ['judge.contradicted_claim'] },
    ]);
    expect(ov.judge).toEqual({
      answered: 2,
      skipped: 2,
      failed: 0,
      cached: 2,
      blended: 0,
      calls: 2,
      promptTokens: 2000,
      completionTokens: 400,
      costUsd: 0.0024,
    });
  });
  it('draws one bar per bin with its count', () => {
    const svg = histogramSvg([0, 0, 1, 0, 0, 0, 0, 0, 0, 2]);
    expect(svg.match(/<rect /g)).toHaveLength(10);
    expect(svg).toContain('data-bin="9" data-count="2"');
    expect(svg).toContain('data-bin="2" data-count="1"');
  });
});

const SAMPLES = join(ROOT, 'reports');
describe.skipIf(!existsSync(SAMPLES))('renderHtml on the sample reports (if graded)', () => {
  it('renders every sample batch without script errors', () => {
    for (const rubric of readdirSync(SAMPLES)) {
      const dir = join(SAMPLES, rubric);
      const files = existsSync(join(dir, 'summary.json'))
        ? readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'summary.json')
        : [];
      // Raw JSON, whatever schema version wrote it: the page must cope either way.
      const reports = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Report);
      if (!reports.length) continue;
      const html = renderHtml(reports, JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary, {
        title: rubric,
        generatedAt: 'now',
      });
      expect(JSON.parse(extract(html).json).reports).toEqual(reports);
      const dom = new FakeDom(html);
      expect(dom.errors).toEqual([]);
      expect(dom.rows()).toHaveLength(reports.length);
      expect(html.match(/<script/gi)).toHaveLength(2);
    }
  });
});
