/** One section per submission: summary, flags, scores, source with inline evidence, judge, evidence tables, hashes. */
import { add, D, h, kv, link, part, put, row, table, type Cell } from './dom.js';
import { splitMessage, studentLines } from './frames.js';
import { itemsPart } from './items.js';
import { fillSource, lineAnchor, sourceFiles, type Note, type SourceFile } from './source.js';
import { page, route, subHref } from './state.js';
import { arr, bySeverity, CRIT, eidOk, fmt, known, obj, STATUSES, str, TEST_ST, yes, type Rec } from './util.js';

/** Links between evidence rows, source lines and citations, for one submission (index i). */
class Anchors {
  readonly ids = new Set<string>();
  readonly files: Map<string, SourceFile>;
  constructor(
    readonly i: number,
    files: readonly SourceFile[],
  ) {
    this.files = new Map(files.filter((f) => f.text !== null).map((f) => [f.path, f]));
  }
  href(suffix: string): string {
    return `${subHref(this.i)}/${suffix}`;
  }
  /** The row's id, once per evidence id, so a link finds it. */
  mark(tr: HTMLElement, eid: unknown): HTMLElement {
    if (eidOk(eid) && !this.ids.has(eid)) {
      tr.setAttribute('id', `s${this.i}-${eid}`);
      this.ids.add(eid);
    }
    tr.setAttribute('data-evidence', eidOk(eid) ? eid : '');
    return tr;
  }
  lineHref(path: string, line: unknown): string | null {
    const f = this.files.get(path);
    return f && typeof line === 'number' && line > 0 ? this.href(lineAnchor(f.k, line)) : null;
  }
  /** `file:line:column`, a link to the line when the report carries the file's text. */
  loc(x: Rec): Cell {
    const text = `${str(x.file)}:${fmt(x.line)}:${fmt(x.column)}`;
    const href = this.lineHref(str(x.file), x.line);
    return href ? this.jump(link(href, text, 'loc'), href) : text;
  }
  /** A link that re-runs the route when clicked on the address already shown (no hashchange then). */
  jump(a: HTMLAnchorElement, href: string): HTMLAnchorElement {
    a.addEventListener('click', () => {
      if (location.hash === href) route();
    });
    return a;
  }
  evLinks(ids: unknown): HTMLElement {
    const span = h('span', 'evidence');
    arr(ids).forEach((e, k) => {
      if (k) add(span, D.createTextNode(' '));
      if (!eidOk(e)) {
        add(span, h('code', 'bad-evidence', e));
        return;
      }
      const a = link(this.href(e), e, this.ids.has(e) ? 'ev' : 'ev missing');
      if (!this.ids.has(e)) a.setAttribute('title', 'not among this report\u2019s evidence');
      a.setAttribute('data-evidence', e);
      add(span, this.jump(a, this.href(e)));
    });
    return span;
  }
}

function evTable(
  an: Anchors,
  name: string,
  title: string,
  heads: string[],
  list: unknown[],
  cells: (x: Rec) => Cell[],
  cls?: (x: Rec) => string,
  unmeasured?: string | null,
): HTMLElement {
  if (unmeasured)
    return add(part(name, `${title}: not measured`), h('p', 'none unmeasured-note', `Not measured: ${unmeasured}`));
  const p = part(name, `${title} (${list.length})`);
  if (!list.length) return add(p, h('p', 'none', 'None.'));
  const { t, body } = table(name, heads, []);
  for (const raw of list) {
    const x = obj(raw);
    const tr = an.mark(row(cells(x)), x.id);
    const c = cls?.(x);
    if (c) tr.setAttribute('class', c);
    add(body, tr);
  }
  return add(p, t);
}

/** Why lint, or function metrics and policy, were not measured for this report (null when they were). */
function notMeasured(r: Rec, items: Rec[], what: 'measured' | 'metrics'): string | null {
  const found =
    what === 'measured'
      ? items.some((x) => x.kind === 'lint')
      : items.some((x) => x.kind === 'complexity' && x.rule !== 'file');
  if (found) return null;
  const status = str(r.status);
  if (status !== 'graded') {
    const err = obj(arr(r.errors)[0]);
    return `the submission was ${status || 'not graded'}${err.code ? ` (${str(err.code)})` : ''}, so it was never analysed`;
  }
  const files = items.filter((x) => x.kind === 'complexity' && x.rule === 'file');
  if (files.some((x) => x[what] === true)) return null;
  const crit = what === 'measured' ? 'style' : 'complexity';
  const why = arr(obj(r.scores).unmeasured)
    .map(obj)
    .find((u) => u.criterion === crit);
  if (why) return str(why.reason);
  const blocked = files.map((x) => str(x.blocked)).filter(Boolean);
  return files.length
    ? `every file was skipped${blocked.length ? ` (${blocked.join(', ')})` : ''}`
    : 'this report has no analysis evidence';
}

/** A test's name; a pytest node id (`file.py::Class::test`) may break after each `::` (segments are inline blocks), never inside a part. */
function testName(name: string): HTMLElement {
  const span = h('span', 'test-name');
  const parts = name.split(/(?<=::)/);
  if (parts.length === 1) return put(span, name);
  for (const p of parts) add(span, h('span', 'seg', p));
  return span;
}

function messageCell(an: Anchors, t: Rec): Cell {
  const out = printedBy(t);
  if (!t.message) return out ?? '';
  const pre = h('pre', 'msg');
  for (const s of splitMessage(str(t.message), new Set(an.files.keys()), str(t.name))) {
    const href = s.kind === 'frame' ? an.lineHref(s.path, s.line) : null;
    if (s.kind === 'frame' && href) add(pre, an.jump(link(href, s.text, 'loc'), href));
    else put(pre, s.text);
  }
  return out ? add(h('div'), pre, out) : pre;
}

/** What the test printed while it ran (kept per test, bounded by the harness), stdout then stderr. */
function printedBy(t: Rec): HTMLElement | null {
  const o = obj(t.output);
  const stdout = str(o.stdout ?? '');
  const stderr = str(o.stderr ?? '');
  if (!stdout && !stderr) return null;
  const block = (label: string, text: string): HTMLElement | null =>
    text ? add(h('div', 'printed'), h('span', 'printed-label', label), h('pre', 'msg', text)) : null;
  return add(
    h('div'),
    block('stdout', stdout),
    block('stderr', stderr),
    o.truncated === true ? h('span', 'printed-label', '(only the start of its output is kept)') : null,
  );
}

function notesOf(r: Rec, items: Rec[], an: Anchors): Note[] {
  const notes: Note[] = [];
  const pos = (x: Rec) => ({ path: str(x.file), line: typeof x.line === 'number' ? x.line : 0, eid: str(x.id) });
  for (const x of items) {
    if (x.kind === 'lint')
      notes.push({
        ...pos(x),
        rank: x.severity === 'error' ? 1 : 2,
        cls: `lint lint-${known(x.severity, ['error', 'warning'])}`,
        text: `${str(x.rule)} (${str(x.severity)}): ${str(x.message)}`,
      });
    else if (x.kind === 'complexity' && x.rule === 'function') {
      const text = `function ${str(x.name) || '(anonymous)'}: cyclomatic ${fmt(x.cyclomatic)}, loop nesting ${fmt(x.maxLoopNesting)}, ${fmt(x.lines)} lines, ${fmt(x.params)} params${x.recursive === true ? ', recursive' : ''}${x.overLimit === true ? ' \u2014 over the limit' : ''}`;
      notes.push({ ...pos(x), rank: x.overLimit === true ? 3 : 4, cls: x.overLimit === true ? 'fn over' : 'fn', text });
    } else if (x.kind === 'complexity' && str(x.rule).startsWith('policy.'))
      notes.push({ ...pos(x), rank: 0, cls: 'policy', text: `${str(x.rule)}: ${str(x.message)}` });
  }
  for (const t of arr(r.tests).map(obj)) {
    if (t.status === 'passed' || !t.message) continue;
    for (const f of studentLines(str(t.message), new Set(an.files.keys())))
      notes.push({
        path: f.path,
        line: f.line,
        eid: str(t.id),
        rank: 0,
        cls: 'test',
        text: `${str(t.status)}: ${str(t.name)}`,
      });
  }
  return notes;
}

export function buildSubmission(raw: unknown, i: number): HTMLElement {
  const r = obj(raw);
  const sub = obj(r.submission);
  const id = str(sub.id);
  const status = known(r.status, STATUSES);
  const files = sourceFiles(sub);
  const an = new Anchors(i, files);
  const s = h('section', `submission st-${status}`);
  s.setAttribute('id', `s${i}`);
  s.setAttribute('data-id', id);
  s.setAttribute('data-status', status);
  s.hidden = true;

  const items = arr(obj(r.evidence).items).map(obj);
  const sb = obj(r.sandbox);
  const tests = evTable(
    an,
    'tests',
    'Tests',
    ['ID', 'Test', 'Status', 'Duration (ms)', 'Weight', 'Message'],
    arr(r.tests),
    (t) => [
      str(t.id),
      testName(str(t.name) + (t.edgeCase === true ? ' [edge case]' : '')),
      str(t.status),
      fmt(t.durationMs),
      fmt(t.weight),
      messageCell(an, t),
    ],
    (t) => `st-${known(t.status, TEST_ST)}`,
  );
  const sand = evTable(an, 'sandbox', 'Sandbox violations', ['ID', 'Event', 'Detail'], arr(sb.violations), (v) => [
    str(v.id),
    str(v.event),
    h('pre', 'msg', v.detail),
  ]);
  const lintList = bySeverity(
    items.filter((x) => x.kind === 'lint'),
    (x) => (x.severity === 'error' ? 'critical' : x.severity),
  );
  const lint = evTable(
    an,
    'lint',
    'Lint findings',
    ['ID', 'Rule', 'Severity', 'Location', 'Message'],
    lintList,
    (x) => [str(x.id), h('code', 'rule', x.rule), str(x.severity), an.loc(x), str(x.message)],
    (x) => `lint-${known(x.severity, ['error', 'warning'])}`,
    notMeasured(r, items, 'measured'),
  );
  const fns = evTable(
    an,
    'functions',
    'Complexity per function',
    ['ID', 'File', 'Function', 'Line', 'Cyclomatic', 'Max loop nesting', 'Recursive', 'Lines', 'Params', 'Over limit'],
    items.filter((x) => x.kind === 'complexity' && x.rule === 'function'),
    (x) => [
      str(x.id),
      str(x.file),
      str(x.name),
      an.lineHref(str(x.file), x.line)
        ? an.jump(
            link(an.lineHref(str(x.file), x.line) as string, fmt(x.line), 'loc'),
            an.lineHref(str(x.file), x.line) as string,
          )
        : fmt(x.line),
      fmt(x.cyclomatic),
      fmt(x.maxLoopNesting),
      yes(x.recursive),
      fmt(x.lines),
      fmt(x.params),
      yes(x.overLimit),
    ],
    (x) => (x.overLimit === true ? 'over' : ''),
    notMeasured(r, items, 'metrics'),
  );
  const pol = evTable(
    an,
    'policy',
    'Policy findings',
    ['ID', 'Rule', 'Location', 'Message'],
    items.filter((x) => x.kind === 'complexity' && str(x.rule).startsWith('policy.')),
    (x) => [str(x.id), h('code', 'rule', x.rule), an.loc(x), str(x.message)],
    undefined,
    notMeasured(r, items, 'metrics'),
  );

  add(s, ...headParts(r, id));
  const errs = arr(r.errors).map(obj);
  if (errs.length)
    add(
      s,
      add(
        part('errors', 'Errors'),
        table(
          'errors',
          ['Code', 'Message'],
          errs.map((e) => [h('code', null, e.code), h('pre', 'msg', e.message)]),
        ).t,
      ),
    );
  add(s, flagsPart(r, an), scoresPart(r));
  const source = part('source', 'Source');
  add(s, source);
  page.deferred.set(i, () =>
    fillSource(source, files, notesOf(r, items, an), `s${i}-`, (eid) => (an.ids.has(eid) ? an.href(eid) : null)),
  );
  add(s, judgePart(obj(r.judge), obj(r.scores), an), itemsPart(obj(r.scores)), tests);
  add(
    s,
    add(
      part('sandbox-run', 'Sandbox'),
      kv([
        ['Backend', str(sb.backend)],
        ['Runs', fmt(sb.runs)],
        [
          'Limits',
          Object.keys(obj(sb.limits))
            .map((k) => `${k}=${str(obj(sb.limits)[k])}`)
            .join(', '),
        ],
      ]),
    ),
    sand,
    lint,
    fns,
    pol,
  );
  add(s, hashesPart(r, sub));
  return s;
}

/** The way back, the print button (neither is printed), the id and the summary fields. */
function headParts(r: Rec, id: string): HTMLElement[] {
  const print = h('button', 'print no-print', 'Print this page');
  print.setAttribute('type', 'button');
  print.addEventListener('click', () => {
    if (typeof window.print === 'function') window.print();
  });
  const tests = arr(r.tests);
  // The student's own name (o'brien, José Núñez) beside the safe id it was filed under.
  const name = obj(r.submission).name;
  const title = name ? `${str(name)} (${id})` : id;
  return [
    add(h('p', 'back no-print'), link('#/', '\u2190 Batch overview'), D.createTextNode(' '), print),
    h('h2', 'sub-id', title),
    kv(
      [
        ['Status', str(r.status), 'status'],
        ['Final score', fmt(obj(r.scores).final), 'final'],
        ['Rubric', `${str(obj(r.rubric).title)} (${str(obj(r.rubric).id)})`, 'rubric'],
        ['Tests passed', `${tests.filter((t) => obj(t).status === 'passed').length}/${tests.length}`, 'tests'],
        ['Graded at', str(r.generatedAt), 'generated-at'],
      ],
      'data-field',
    ),
  ];
}

function flagsPart(r: Rec, an: Anchors): HTMLElement {
  const flags = bySeverity(arr(r.flags).map(obj), (f) => f.severity);
  const fp = part('flags', `Flags (${flags.length})`);
  if (!flags.length) return add(fp, h('p', 'none', 'No flags.'));
  const { t, body } = table('flags', ['Code', 'Severity', 'Message', 'Claim', 'Evidence'], []);
  for (const f of flags) {
    const tr = row([
      h('code', 'flag-code', f.code),
      str(f.severity),
      str(f.message),
      f.claim ? h('q', null, f.claim) : '',
      an.evLinks(f.evidence),
    ]);
    tr.setAttribute('class', `sev-${known(f.severity, ['info', 'warning', 'critical'])}`);
    tr.setAttribute('data-severity', known(f.severity, ['info', 'warning', 'critical']));
    add(body, tr);
  }
  return add(fp, t);
}

function scoresPart(r: Rec): HTMLElement {
  const sc = obj(r.scores);
  const det = obj(sc.deterministic);
  const llm = sc.llm ? obj(sc.llm) : null;
  const bl = obj(sc.blend);
  const pc = obj(bl.perCriterion);
  const w = obj(bl.weights);
  const cw = obj(obj(r.rubric).criteria);
  const sp = part('scores', 'Scores');
  add(
    sp,
    table(
      'scores',
      ['Criterion', 'Deterministic', 'LLM', 'Final'],
      [
        ...CRIT.map((c) => [c, fmt(det[c]), llm ? fmt(llm[c]) : '\u2014', fmt(pc[c])]),
        ['total', fmt(det.total), llm ? fmt(llm.total) : '\u2014', fmt(sc.final)],
      ],
    ).t,
  );
  const unmeasured = arr(sc.unmeasured).map(obj);
  return add(
    sp,
    kv(
      [
        ['Blend weights', `deterministic ${fmt(w.deterministic)}, LLM ${fmt(w.llm)}`],
        ['LLM applied', yes(bl.applied)],
        // The basis is built from the quality and blend reasons (stages/judge/judgement.ts): each is shown on
        // its own only when the basis does not already say it, so no sentence appears twice.
        ...(inBasis(sc, bl.reason) ? [] : [['Blend reason', str(bl.reason), 'blend-reason'] as const]),
        ['Basis', str(sc.basis), 'basis'],
        ...(sc.quality && !inBasis(sc, obj(sc.quality).reason)
          ? [['Quality', str(obj(sc.quality).reason), 'quality'] as const]
          : []),
        ...(unmeasured.length
          ? [
              [
                'Not measured',
                unmeasured.map((u) => `${str(u.criterion)}: ${str(u.reason)}`).join('; '),
                'unmeasured',
              ] as const,
            ]
          : []),
        ...(Object.keys(cw).length
          ? [
              [
                'Criteria weights',
                Object.keys(cw)
                  .map((k) => `${k} ${fmt(cw[k])}`)
                  .join(', '),
              ] as const,
            ]
          : []),
      ],
      'data-field',
    ),
  );
}

function hashesPart(r: Rec, sub: Rec): HTMLElement {
  const hp = part('hashes', 'Hashes and provenance');
  add(
    hp,
    kv(
      [
        ['Evidence hash', h('code', 'hash', obj(r.evidence).hash), 'evidence-hash'],
        ['Submission sha256', h('code', 'hash', sub.sha256), 'submission-sha256'],
        ['Rubric sha256', h('code', 'hash', obj(r.rubric).sha256), 'rubric-sha256'],
      ],
      'data-hash',
    ),
  );
  add(
    hp,
    table(
      'files',
      ['File', 'Bytes', 'sha256'],
      arr(sub.files)
        .map(obj)
        .map((f) => [str(f.path), fmt(f.bytes), h('code', 'hash', f.sha256)]),
    ).t,
  );
  if (arr(sub.ignored).length) add(hp, h('p', 'ignored', `Ignored: ${arr(sub.ignored).map(str).join(', ')}`));
  const tools = obj(r.tools);
  const tim = obj(r.timings);
  return add(
    hp,
    kv([
      [
        'Tools',
        Object.keys(tools)
          .map((k) => `${k} ${str(tools[k])}`)
          .join(', '),
      ],
      [
        'Timings (ms)',
        Object.keys(tim)
          .map((k) => `${k}=${str(tim[k])}`)
          .join(', '),
      ],
    ]),
  );
}

/** Whether the report's basis sentence already says `text` (it is built from the quality, blend and judge reasons). */
const inBasis = (sc: Rec, text: unknown): boolean => str(text) !== '' && str(sc.basis).includes(str(text));

function judgePart(j: Rec, sc: Rec, an: Anchors): HTMLElement {
  const p = part('judge', 'LLM judge');
  const tk = obj(j.tokens);
  const out = j.output ? obj(j.output) : null;
  // A judge that was never asked has no model, tokens or cost to show; why it was not is in the basis above.
  if (str(j.status) === 'skipped' && !arr(j.attempts).length && inBasis(sc, j.reason))
    return add(p, kv([['Status', 'skipped (why: the basis, under Scores)', 'judge-status']], 'data-field'));
  add(
    p,
    kv(
      [
        ['Status', str(j.status), 'judge-status'],
        ...(inBasis(sc, j.reason) ? [] : [['Reason', str(j.reason)] as const]),
        ['Model', j.model ? str(j.model) : '\u2014'],
        ['Prompt version', str(j.promptVersion)],
        ['Cached', yes(j.cached)],
        ['Tokens', `prompt ${fmt(tk.prompt)}, completion ${fmt(tk.completion)}`],
        ['Cost (USD)', fmt(j.costUsd)],
      ],
      'data-field',
    ),
  );
  const at = arr(j.attempts).map(obj);
  if (at.length) {
    add(
      p,
      h('h4', null, 'Attempts'),
      table(
        'attempts',
        [
          '#',
          'Model',
          'Judge',
          'Outcome',
          'Latency (ms)',
          'Prompt tokens',
          'Completion tokens',
          'HTTP status',
          'Error',
        ],
        at.map((a, k) => [
          String(k + 1),
          str(a.model),
          str(a.judge),
          str(a.outcome),
          fmt(a.latencyMs),
          fmt(a.promptTokens),
          fmt(a.completionTokens),
          fmt(a.status),
          str(a.error),
        ]),
      ).t,
    );
  }
  if (!out) return p;
  const os = obj(out.scores);
  add(
    p,
    h('h4', null, 'Judge output'),
    kv([
      ['Scores', CRIT.map((c) => `${c} ${fmt(os[c])}`).join(', ')],
      ['Confidence', fmt(out.confidence)],
      ['Insufficient evidence', yes(out.insufficient_evidence)],
    ]),
    h('p', 'judge-summary', out.summary),
  );
  const ul = h('ul', 'claims');
  for (const c of arr(out.claims).map(obj)) {
    const li = h('li', `claim ${known(c.polarity, ['strength', 'weakness'])}`);
    add(
      li,
      h('span', 'crit', `${str(c.criterion)} \u00B7 ${str(c.polarity)}: `),
      h('span', 'claim-text', c.text),
      D.createTextNode(' '),
      an.evLinks(c.evidence),
    );
    add(ul, li);
  }
  return add(p, ul);
}
