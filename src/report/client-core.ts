import { HIDDEN_CHARS_SOURCE } from '../domain/text.js';

/**
 * The page's inline script, part 1: helpers, the overview, the submissions
 * table and the hash router. Plain ES2020, concatenated with client-page.ts
 * into one IIFE by html.ts.
 *
 * Every string from a report is student-controlled. It only ever reaches the
 * DOM through put() (text nodes, with invisible and bidi controls shown as
 * visible markers) or setAttribute('data-id', …). Links are '#' fragments
 * built here; element ids are built from array indexes and checked evidence ids.
 * No markup is ever parsed from data.
 *
 * Written with String.raw: no backticks, no dollar-brace, no '<' + '/script'. The hidden-character
 * list is domain/text.ts's, put in where its placeholder stands.
 */
export const CLIENT_CORE = String.raw`
var D = document;
var CTL = /__HIDDEN_CHARS__/g;
var CRIT = ['correctness', 'edge_cases', 'style', 'complexity'];
var STATUSES = ['graded', 'rejected', 'error'];
var TEST_ST = ['passed', 'failed', 'error', 'timeout', 'skipped'];
var DATA = {};
var REPORTS = [];
var KEYS = [];
var BYKEY = new Map();
var SECTIONS = [];
var OVERVIEW = null;
var ROWS = [];
var SORT = { key: '', dir: 1 };
var THS = new Map();
var TBODY = null;
var HL = null;

function arr(x) { return Array.isArray(x) ? x : []; }
function obj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x) ? x : {}; }
function num(x) { return typeof x === 'number' && isFinite(x) ? x : null; }
function str(x) { return x === null || x === undefined ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x); }
function fmt(x) { var n = num(x); return n === null ? '\u2014' : String(Math.round(n * 100) / 100); }
function yes(x) { return x === true ? 'yes' : x === false ? 'no' : '\u2014'; }
function known(v, list) { return list.indexOf(v) >= 0 ? v : 'other'; }
function hex(c) { var s = c.charCodeAt(0).toString(16).toUpperCase(); while (s.length < 4) s = '0' + s; return s; }

function put(e, v) {
  var s = str(v), last = 0, m;
  CTL.lastIndex = 0;
  while ((m = CTL.exec(s)) !== null) {
    if (m.index > last) e.appendChild(D.createTextNode(s.slice(last, m.index)));
    var sp = D.createElement('span');
    sp.setAttribute('class', 'ctl');
    sp.setAttribute('title', 'invisible or text-direction control character');
    sp.textContent = '\u27E8U+' + hex(m[0]) + '\u27E9';
    e.appendChild(sp);
    last = m.index + m[0].length;
  }
  if (last < s.length) e.appendChild(D.createTextNode(s.slice(last)));
  return e;
}
function h(tag, cls, text) {
  var e = D.createElement(tag);
  if (cls) e.setAttribute('class', cls);
  if (text !== undefined) put(e, text);
  return e;
}
function add(p) {
  for (var i = 1; i < arguments.length; i++) { var c = arguments[i]; if (c) p.appendChild(c); }
  return p;
}
function isNode(v) { return v !== null && typeof v === 'object' && typeof v.appendChild === 'function'; }
function link(href, text, cls) { var a = h('a', cls, text); a.setAttribute('href', href); return a; }
function subHref(i) { return '#/s/' + KEYS[i]; }
function part(name, title) { var d = h('div', 'part'); d.setAttribute('data-part', name); add(d, h('h3', null, title)); return d; }
function table(cls, heads, rows) {
  var t = h('table', cls), tr = h('tr'), tb = h('tbody');
  heads.forEach(function (x) { add(tr, h('th', null, x)); });
  add(t, add(h('thead'), tr), tb);
  rows.forEach(function (cells) { add(tb, row(cells)); });
  return t;
}
function row(cells) {
  var tr = h('tr');
  cells.forEach(function (c) { add(tr, isNode(c) ? add(h('td'), c) : h('td', null, c)); });
  return tr;
}
function kv(pairs, attr) {
  var dl = h('dl', 'kv');
  pairs.forEach(function (p) {
    var dd = isNode(p[1]) ? add(h('dd'), p[1]) : h('dd', null, p[1]);
    if (attr && p[2]) dd.setAttribute(attr, p[2]);
    add(dl, h('dt', null, p[0]), dd);
  });
  return dl;
}

function keyFor(id, i) {
  var k;
  try { k = encodeURIComponent(id); } catch (e) { k = ''; }
  if (!k) k = '~' + i;
  while (BYKEY.has(k)) k = k + '~' + i;
  BYKEY.set(k, i);
  return k;
}
function lookup(k) {
  if (BYKEY.has(k)) return BYKEY.get(k);
  try { k = encodeURIComponent(decodeURIComponent(k)); } catch (e) { return -1; }
  return BYKEY.has(k) ? BYKEY.get(k) : -1;
}
function route() {
  var m = /^#\/s\/([^\/]*)(?:\/([A-Za-z0-9]{1,32}))?$/.exec(str(location.hash));
  var idx = m ? lookup(m[1]) : -1;
  if (OVERVIEW) OVERVIEW.hidden = idx >= 0;
  SECTIONS.forEach(function (s, j) { s.hidden = j !== idx; });
  if (HL) { HL.classList.remove('hl'); HL = null; }
  var t = idx >= 0 && m[2] ? D.getElementById('s' + idx + '-' + m[2]) : null;
  if (t) {
    t.classList.add('hl');
    HL = t;
    if (typeof t.scrollIntoView === 'function') t.scrollIntoView({ block: 'center' });
  } else if (typeof window.scrollTo === 'function') {
    window.scrollTo(0, 0);
  }
}

function flaggedOf(r) {
  return arr(obj(r).flags).some(function (f) { var s = obj(f).severity; return s === 'warning' || s === 'critical'; });
}
function critOf(r, c) {
  var sc = obj(obj(r).scores), b = obj(obj(sc.blend).perCriterion);
  return num(c in b ? b[c] : obj(sc.deterministic)[c]);
}

function buildOverview() {
  var ov = obj(DATA.overview), sm = DATA.summary ? obj(DATA.summary) : null, s = h('section', 'overview');
  s.setAttribute('id', 'overview');
  add(s, h('h2', null, 'Batch overview'));
  var r0 = obj(obj(REPORTS[0]).rubric);
  add(s, kv([
    ['Rubric', sm ? obj(sm.rubric).id : r0.id, 'rubric'],
    ['Sandbox', sm ? sm.sandbox : obj(obj(REPORTS[0]).sandbox).backend, 'sandbox'],
    ['Submissions', fmt(ov.count), 'count'],
    ['Graded', fmt(ov.graded), 'graded'],
    ['Rejected', fmt(ov.rejected), 'rejected'],
    ['Errored', fmt(ov.errored), 'errored'],
    ['Mean final (graded)', fmt(ov.meanFinal), 'mean-final'],
    ['Flagged', String(arr(ov.flagged).length), 'flagged'],
  ], 'data-stat'));

  var fl = part('flagged', 'Flagged submissions (warning or critical flags)');
  fl.setAttribute('id', 'flagged');
  var ul = h('ul', 'flagged');
  arr(ov.flagged).forEach(function (f) {
    f = obj(f);
    var i = num(f.index);
    if (i === null || i < 0 || i >= REPORTS.length) return;
    var li = add(h('li', 'sev-' + known(f.severity, ['warning', 'critical'])), link(subHref(i), f.id), h('span', 'sev', ' ' + str(f.severity) + ': '));
    li.setAttribute('data-id', str(f.id));
    add(ul, add(li, h('code', null, arr(f.codes).map(str).join(' '))));
  });
  add(s, add(fl, arr(ov.flagged).length ? ul : h('p', 'none', 'No submission has a warning or critical flag.')));

  var um = part('unmeasured', 'Criteria not measured'), uml = h('ul', 'unmeasured');
  um.setAttribute('id', 'unmeasured');
  arr(ov.unmeasured).forEach(function (u) {
    u = obj(u);
    var i = num(u.index);
    if (i === null || i < 0 || i >= REPORTS.length) return;
    var li = add(h('li'), link(subHref(i), u.id), h('span', null, ': ' + arr(u.items).map(str).join('; ')));
    li.setAttribute('data-id', str(u.id));
    add(uml, li);
  });
  add(s, add(um, arr(ov.unmeasured).length ? uml : h('p', 'none', 'Every weighted criterion was measured for every graded submission.')));

  var hi = part('histogram', 'Final scores (graded submissions)'), svg = D.getElementById('histogram');
  add(s, add(hi, svg));

  var cr = part('criteria', 'Mean score per criterion (graded submissions, measured only)');
  add(s, add(cr, table('criteria', ['Criterion', 'Mean', 'Submissions measured'], CRIT.map(function (c) {
    var x = obj(obj(ov.criteria)[c]);
    return [c, fmt(x.mean), fmt(x.n)];
  }))));

  var j = obj(ov.judge), ju = part('judge-usage', 'LLM judge usage');
  add(s, add(ju, kv([
    ['Answered', fmt(j.answered), 'answered'], ['Skipped', fmt(j.skipped), 'skipped'], ['Failed', fmt(j.failed), 'failed'],
    ['Cached', fmt(j.cached), 'cached'], ['Blended into the final score', fmt(j.blended), 'blended'], ['Calls', fmt(j.calls), 'calls'],
    ['Prompt tokens', fmt(j.promptTokens), 'prompt-tokens'], ['Completion tokens', fmt(j.completionTokens), 'completion-tokens'],
    ['Cost (USD)', fmt(j.costUsd), 'cost'],
  ], 'data-stat')));
  add(s, buildTable());
  return s;
}

var COLS = [['id', 'Submission', 0], ['status', 'Status', 0], ['final', 'Final', 1], ['correctness', 'Correctness', 1], ['edge_cases', 'Edge cases', 1],
  ['style', 'Style', 1], ['complexity', 'Complexity', 1], ['tests', 'Tests passed', 1], ['flags', 'Flags', 1]];

function buildTable() {
  var wrap = part('submissions', 'Submissions'), ctl = h('div', 'controls');
  var input = h('input'), sel = h('select'), shown = h('span', 'shown');
  input.setAttribute('id', 'filter');
  input.setAttribute('type', 'search');
  input.setAttribute('placeholder', 'Filter by submission id');
  input.setAttribute('aria-label', 'Filter by submission id');
  sel.setAttribute('id', 'status');
  sel.setAttribute('aria-label', 'Filter by status');
  ['all', 'graded', 'rejected', 'error', 'flagged'].forEach(function (v) { var o = h('option', null, v); o.setAttribute('value', v); add(sel, o); });
  shown.setAttribute('id', 'shown');
  add(wrap, add(ctl, input, sel, shown));
  var t = h('table', 'submissions'), hr = h('tr'), tb = h('tbody');
  t.setAttribute('id', 'submissions');
  COLS.forEach(function (c) {
    var th = add(h('th'), h('button', 'sort', c[1]));
    th.setAttribute('data-sort', c[0]);
    th.setAttribute('aria-sort', 'none');
    th.addEventListener('click', function () { sortBy(c[0]); });
    THS.set(c[0], th);
    add(hr, th);
  });
  add(wrap, add(t, add(h('thead'), hr), tb));
  REPORTS.forEach(function (r, i) {
    r = obj(r);
    var tests = arr(r.tests), passed = tests.filter(function (x) { return obj(x).status === 'passed'; }).length;
    var flags = arr(r.flags), it = { i: i, id: str(obj(r.submission).id), status: str(r.status), flagged: flaggedOf(r), v: {} };
    it.v.final = num(obj(r.scores).final);
    CRIT.forEach(function (c) { it.v[c] = critOf(r, c); });
    it.v.tests = tests.length ? passed / tests.length : null;
    it.v.flags = flags.length;
    var tr = h('tr', 'st-' + known(it.status, STATUSES) + (it.flagged ? ' flagged' : ''));
    tr.setAttribute('data-id', it.id);
    tr.setAttribute('data-status', known(it.status, STATUSES));
    tr.setAttribute('data-flagged', it.flagged ? 'true' : 'false');
    var cells = [link(subHref(i), it.id), it.status, fmt(it.v.final)].concat(CRIT.map(function (c) { return fmt(it.v[c]); }),
      [passed + '/' + tests.length, flags.map(function (f) { return str(obj(f).code); }).join(' ')]);
    cells.forEach(function (c, k) {
      var td = isNode(c) ? add(h('td'), c) : h('td', null, c);
      td.setAttribute('data-col', COLS[k][0]);
      add(tr, td);
    });
    it.tr = tr;
    ROWS.push(it);
  });
  ROWS.sort(function (a, b) { return a.flagged !== b.flagged ? (a.flagged ? -1 : 1) : cmpStr(a.id, b.id) || a.i - b.i; });
  ROWS.forEach(function (it) { tb.appendChild(it.tr); });
  input.addEventListener('input', applyFilter);
  sel.addEventListener('change', applyFilter);
  TBODY = tb;
  return wrap;
}
function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
function sortBy(key) {
  var col = COLS.filter(function (c) { return c[0] === key; })[0];
  if (!col) return;
  SORT.dir = SORT.key === key ? -SORT.dir : 1;
  SORT.key = key;
  var d = SORT.dir;
  ROWS.sort(function (a, b) {
    var r = 0;
    if (col[2]) {
      var x = a.v[key], y = b.v[key];
      if (x === null || y === null) r = x === y ? 0 : x === null ? 1 : -1;
      else r = (x - y) * d;
    } else {
      r = cmpStr(key === 'id' ? a.id : a.status, key === 'id' ? b.id : b.status) * d;
    }
    return r || cmpStr(a.id, b.id) || a.i - b.i;
  });
  ROWS.forEach(function (it) { TBODY.appendChild(it.tr); });
  THS.forEach(function (th, k) { th.setAttribute('aria-sort', k === key ? (d > 0 ? 'ascending' : 'descending') : 'none'); });
}
function applyFilter() {
  var q = str(D.getElementById('filter').value).toLowerCase(), st = str(D.getElementById('status').value) || 'all', n = 0;
  ROWS.forEach(function (it) {
    var ok = it.id.toLowerCase().indexOf(q) >= 0 && (st === 'all' || (st === 'flagged' ? it.flagged : it.status === st));
    it.tr.hidden = !ok;
    if (ok) n++;
  });
  D.getElementById('shown').textContent = n + ' of ' + ROWS.length + ' shown';
}
`.replace('/__HIDDEN_CHARS__/g', () => `/${HIDDEN_CHARS_SOURCE}/g`);
