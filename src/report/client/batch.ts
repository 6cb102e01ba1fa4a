/** The batch overview: statistics, flagged and unmeasured submissions, and the sortable, filterable table. */
import { add, D, h, kv, link, part, table, type Cell } from './dom.js';
import { page, subHref } from './state.js';
import { arr, CRIT, fmt, known, num, obj, STATUSES, str, type Rec } from './util.js';

const flaggedOf = (r: unknown): boolean =>
  arr(obj(r).flags).some((f) => ['warning', 'critical'].includes(str(obj(f).severity)));
function critOf(r: unknown, c: string): number | null {
  const sc = obj(obj(r).scores);
  const b = obj(obj(sc.blend).perCriterion);
  return num(c in b ? b[c] : obj(sc.deterministic)[c]);
}

/** Index into the reports, or null when the entry names none (data from disk is not trusted). */
const indexOf = (x: Rec): number | null => {
  const i = num(x.index);
  return i === null || i < 0 || i >= page.reports.length ? null : i;
};

export function buildOverview(): HTMLElement {
  const ov = obj(page.data.overview);
  const sm = page.data.summary ? obj(page.data.summary) : null;
  const s = h('section', 'overview');
  s.setAttribute('id', 'overview');
  add(s, h('h2', null, 'Batch overview'));
  // The students first: what an instructor opens the page for (issue 31); the statistics below them.
  add(s, buildTable());
  const r0 = obj(page.reports[0]);
  add(
    s,
    kv(
      [
        ['Rubric', str(sm ? obj(sm.rubric).id : obj(r0.rubric).id), 'rubric'],
        ['Sandbox', str(sm ? sm.sandbox : obj(r0.sandbox).backend), 'sandbox'],
        ['Submissions', fmt(ov.count), 'count'],
        ['Graded', fmt(ov.graded), 'graded'],
        ['Rejected', fmt(ov.rejected), 'rejected'],
        ['Errored', fmt(ov.errored), 'errored'],
        ['Mean final (graded)', fmt(ov.meanFinal), 'mean-final'],
        ['Flagged', String(arr(ov.flagged).length), 'flagged'],
      ],
      'data-stat',
    ),
  );

  const fl = part('flagged', 'Flagged submissions (warning or critical flags)');
  fl.setAttribute('id', 'flagged');
  const ul = h('ul', 'flagged');
  for (const f of arr(ov.flagged).map(obj)) {
    const i = indexOf(f);
    if (i === null) continue;
    const li = add(
      h('li', `sev-${known(f.severity, ['warning', 'critical'])}`),
      link(subHref(i), f.id),
      h('span', 'sev', ` ${str(f.severity)}: `),
    );
    li.setAttribute('data-id', str(f.id));
    arr(f.codes).forEach((c, k) => add(li, k ? D.createTextNode(' ') : null, h('code', 'flag-code', str(c))));
    add(ul, li);
  }
  add(s, add(fl, arr(ov.flagged).length ? ul : h('p', 'none', 'No submission has a warning or critical flag.')));

  const um = part('unmeasured', 'Criteria not measured');
  const uml = h('ul', 'unmeasured');
  um.setAttribute('id', 'unmeasured');
  for (const u of arr(ov.unmeasured).map(obj)) {
    const i = indexOf(u);
    if (i === null) continue;
    const li = add(h('li'), link(subHref(i), u.id), h('span', null, `: ${arr(u.items).map(str).join('; ')}`));
    li.setAttribute('data-id', str(u.id));
    add(uml, li);
  }
  add(
    s,
    add(
      um,
      arr(ov.unmeasured).length
        ? uml
        : h('p', 'none', 'Every weighted criterion was measured for every graded submission.'),
    ),
  );

  add(s, add(part('histogram', 'Final scores (graded submissions)'), D.getElementById('histogram')));
  const cr = part('criteria', 'Mean score per criterion (graded submissions, measured only)');
  add(
    s,
    add(
      cr,
      table(
        'criteria',
        ['Criterion', 'Mean', 'Submissions measured'],
        CRIT.map((c) => {
          const x = obj(obj(ov.criteria)[c]);
          return [c, fmt(x.mean), fmt(x.n)];
        }),
      ).t,
    ),
  );

  const j = obj(ov.judge);
  // Judge statistics only when a judge ran: a batch graded deterministically has nothing to count there.
  const ran = [j.answered, j.failed, j.cached, j.calls].some((n) => (num(n) ?? 0) > 0);
  if (ran)
    add(
      s,
      add(
        part('judge-usage', 'LLM judge usage'),
        kv(
          [
            ['Answered', fmt(j.answered), 'answered'],
            ['Skipped', fmt(j.skipped), 'skipped'],
            ['Failed', fmt(j.failed), 'failed'],
            ['Cached', fmt(j.cached), 'cached'],
            ['Blended into the final score', fmt(j.blended), 'blended'],
            ['Calls', fmt(j.calls), 'calls'],
            ['Prompt tokens', fmt(j.promptTokens), 'prompt-tokens'],
            ['Completion tokens', fmt(j.completionTokens), 'completion-tokens'],
            ['Cost (USD)', fmt(j.costUsd), 'cost'],
          ],
          'data-stat',
        ),
      ),
    );
  return s;
}

type ColKey = 'id' | 'status' | 'final' | (typeof CRIT)[number] | 'tests' | 'flags';
const COLS: readonly [key: ColKey, title: string, numeric: boolean][] = [
  ['id', 'Submission', false],
  ['status', 'Status', false],
  ['final', 'Final', true],
  ['correctness', 'Correctness', true],
  ['edge_cases', 'Edge cases', true],
  ['style', 'Style', true],
  ['complexity', 'Complexity', true],
  ['tests', 'Tests passed', true],
  ['flags', 'Flags', true],
];
interface Row {
  i: number;
  id: string;
  status: string;
  flagged: boolean;
  v: Partial<Record<ColKey, number | null>>;
  tr: HTMLTableRowElement;
}

const rows: Row[] = [];
const sort = { key: '', dir: 1 };
const heads = new Map<string, HTMLElement>();
let tbody: HTMLElement | null = null;
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function buildRow(r: Rec, i: number): Row {
  const tests = arr(r.tests);
  const passed = tests.filter((x) => obj(x).status === 'passed').length;
  const flags = arr(r.flags);
  const it: Row = {
    i,
    id: str(obj(r.submission).id),
    status: str(r.status),
    flagged: flaggedOf(r),
    v: {},
    tr: h('tr'),
  };
  it.v.final = num(obj(r.scores).final);
  for (const c of CRIT) it.v[c] = critOf(r, c);
  it.v.tests = tests.length ? passed / tests.length : null;
  it.v.flags = flags.length;
  const tr = it.tr;
  tr.setAttribute('class', `st-${known(it.status, STATUSES)}${it.flagged ? ' flagged' : ''}`);
  tr.setAttribute('data-id', it.id);
  tr.setAttribute('data-status', known(it.status, STATUSES));
  tr.setAttribute('data-flagged', it.flagged ? 'true' : 'false');
  const codes = h('span', 'flag-codes');
  flags.forEach((f, k) => add(codes, k ? D.createTextNode(' ') : null, h('code', 'flag-code', str(obj(f).code))));
  const cells: Cell[] = [
    link(subHref(i), it.id, 'sub-link'),
    it.status,
    fmt(it.v.final),
    ...CRIT.map((c) => fmt(it.v[c])),
    `${passed}/${tests.length}`,
    codes,
  ];
  cells.forEach((c, k) => {
    const td = typeof c === 'string' ? h('td', null, c) : add(h('td'), c);
    td.setAttribute('data-col', COLS[k]?.[0] ?? '');
    add(tr, td);
  });
  return it;
}

function buildTable(): HTMLElement {
  const wrap = part('submissions', 'Submissions');
  const input = h('input');
  const sel = h('select');
  const shown = h('span', 'shown');
  input.setAttribute('id', 'filter');
  input.setAttribute('type', 'search');
  input.setAttribute('placeholder', 'Filter by submission id');
  input.setAttribute('aria-label', 'Filter by submission id');
  sel.setAttribute('id', 'status');
  sel.setAttribute('aria-label', 'Filter by status');
  for (const v of ['all', 'graded', 'rejected', 'error', 'flagged']) {
    const o = h('option', null, v);
    o.setAttribute('value', v);
    add(sel, o);
  }
  shown.setAttribute('id', 'shown');
  add(wrap, add(h('div', 'controls'), input, sel, shown));
  const t = h('table', 'submissions');
  const hr = h('tr');
  const tb = h('tbody');
  t.setAttribute('id', 'submissions');
  for (const [key, title] of COLS) {
    const th = add(h('th'), h('button', 'sort', title));
    th.setAttribute('data-sort', key);
    th.setAttribute('aria-sort', 'none');
    th.addEventListener('click', () => sortBy(key));
    heads.set(key, th);
    add(hr, th);
  }
  add(wrap, add(t, add(h('thead'), hr), tb));
  page.reports.forEach((r, i) => rows.push(buildRow(obj(r), i)));
  rows.sort((a, b) => (a.flagged !== b.flagged ? (a.flagged ? -1 : 1) : cmpStr(a.id, b.id) || a.i - b.i));
  for (const it of rows) tb.appendChild(it.tr);
  input.addEventListener('input', applyFilter);
  sel.addEventListener('change', applyFilter);
  tbody = tb;
  return wrap;
}

function sortBy(key: ColKey): void {
  const col = COLS.find((c) => c[0] === key);
  if (!col) return;
  sort.dir = sort.key === key ? -sort.dir : 1;
  sort.key = key;
  const d = sort.dir;
  rows.sort((a, b) => {
    let r = 0;
    if (col[2]) {
      const x = a.v[key] ?? null;
      const y = b.v[key] ?? null;
      if (x === null || y === null) r = x === y ? 0 : x === null ? 1 : -1;
      else r = (x - y) * d;
    } else {
      r = cmpStr(key === 'id' ? a.id : a.status, key === 'id' ? b.id : b.status) * d;
    }
    return r || cmpStr(a.id, b.id) || a.i - b.i;
  });
  for (const it of rows) tbody?.appendChild(it.tr);
  heads.forEach((th, k) => th.setAttribute('aria-sort', k === key ? (d > 0 ? 'ascending' : 'descending') : 'none'));
}

export function applyFilter(): void {
  const q = str((D.getElementById('filter') as HTMLInputElement | null)?.value).toLowerCase();
  const st = str((D.getElementById('status') as HTMLSelectElement | null)?.value) || 'all';
  let n = 0;
  for (const it of rows) {
    const ok = it.id.toLowerCase().includes(q) && (st === 'all' || (st === 'flagged' ? it.flagged : it.status === st));
    it.tr.hidden = !ok;
    if (ok) n++;
  }
  const shown = D.getElementById('shown');
  if (shown) shown.textContent = `${n} of ${rows.length} shown`;
}
