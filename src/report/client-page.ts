/**
 * The page's inline script, part 2: one section per submission, and boot().
 * Uses the helpers of client-core.ts (same IIFE); the same rules hold: report
 * strings only through put()/text, ids from indexes and checked evidence ids,
 * hrefs are '#' fragments built here.
 */
export const CLIENT_PAGE = String.raw`
function eidOk(e) { return typeof e === 'string' && /^[A-Za-z0-9]{1,32}$/.test(e); }

function buildSubmission(r, i) {
  r = obj(r);
  var sub = obj(r.submission), id = str(sub.id), status = str(r.status), anchors = new Set();
  var s = h('section', 'submission st-' + known(status, STATUSES));
  s.setAttribute('id', 's' + i);
  s.setAttribute('data-id', id);
  s.setAttribute('data-status', known(status, STATUSES));
  s.hidden = true;

  function anchor(tr, eid) {
    if (eidOk(eid) && !anchors.has(eid)) { tr.setAttribute('id', 's' + i + '-' + eid); anchors.add(eid); }
    tr.setAttribute('data-evidence', eidOk(eid) ? eid : '');
    return tr;
  }
  function evLinks(ids) {
    var span = h('span', 'evidence');
    arr(ids).forEach(function (e, k) {
      if (k) add(span, D.createTextNode(' '));
      if (!eidOk(e)) { add(span, h('code', 'bad-evidence', e)); return; }
      var a = link(subHref(i) + '/' + e, e, anchors.has(e) ? 'ev' : 'ev missing');
      if (!anchors.has(e)) a.setAttribute('title', 'not among this report\u2019s evidence');
      a.setAttribute('data-evidence', e);
      a.addEventListener('click', function () { if (location.hash === subHref(i) + '/' + e) route(); });
      add(span, a);
    });
    return span;
  }
  function evTable(name, title, heads, list, cells, cls) {
    var p = part(name, title + ' (' + list.length + ')');
    if (!list.length) return add(p, h('p', 'none', 'None.'));
    var t = table(name, heads, []), tb = t.lastChild;
    list.forEach(function (x) {
      x = obj(x);
      var tr = anchor(row(cells(x)), x.id);
      if (cls) { var c = cls(x); if (c) tr.setAttribute('class', c); }
      add(tb, tr);
    });
    return add(p, t);
  }
  function loc(x) { return str(x.file) + ':' + fmt(x.line) + ':' + fmt(x.column); }

  var items = arr(obj(r.evidence).items).map(obj), sb = obj(r.sandbox);
  var tests = evTable('tests', 'Tests', ['ID', 'Test', 'Status', 'Duration (ms)', 'Weight', 'Message'], arr(r.tests), function (t) {
    return [str(t.id), str(t.name) + (t.edgeCase === true ? ' [edge case]' : ''), str(t.status), fmt(t.durationMs), fmt(t.weight), t.message ? h('pre', 'msg', t.message) : ''];
  }, function (t) { return 'st-' + known(t.status, TEST_ST); });
  var sand = evTable('sandbox', 'Sandbox violations', ['ID', 'Event', 'Detail'], arr(sb.violations), function (v) {
    return [str(v.id), str(v.event), h('pre', 'msg', v.detail)];
  });
  var lint = evTable('lint', 'Lint findings', ['ID', 'Rule', 'Severity', 'Location', 'Message'], items.filter(function (x) { return x.kind === 'lint'; }), function (x) {
    return [str(x.id), str(x.rule), str(x.severity), loc(x), str(x.message)];
  }, function (x) { return 'lint-' + known(x.severity, ['error', 'warning']); });
  var fns = evTable('functions', 'Complexity per function', ['ID', 'File', 'Function', 'Line', 'Cyclomatic', 'Max loop nesting', 'Recursive', 'Lines', 'Params', 'Over limit'],
    items.filter(function (x) { return x.kind === 'complexity' && x.rule === 'function'; }), function (x) {
      return [str(x.id), str(x.file), str(x.name), fmt(x.line), fmt(x.cyclomatic), fmt(x.maxLoopNesting), yes(x.recursive), fmt(x.lines), fmt(x.params), yes(x.overLimit)];
    }, function (x) { return x.overLimit === true ? 'over' : ''; });
  var pol = evTable('policy', 'Policy findings', ['ID', 'Rule', 'Location', 'Message'],
    items.filter(function (x) { return x.kind === 'complexity' && str(x.rule).indexOf('policy.') === 0; }), function (x) {
      return [str(x.id), str(x.rule), loc(x), str(x.message)];
    });

  var back = add(h('p', 'back'), link('#/', '\u2190 Batch overview'));
  var sc = obj(r.scores), det = obj(sc.deterministic), llm = sc.llm ? obj(sc.llm) : null, bl = obj(sc.blend), pc = obj(bl.perCriterion), w = obj(bl.weights);
  add(s, back, h('h2', 'sub-id', sub.name ? str(sub.name) + ' (' + id + ')' : id), kv([
    ['Status', status, 'status'], ['Final score', fmt(sc.final), 'final'],
    ['Rubric', str(obj(r.rubric).title) + ' (' + str(obj(r.rubric).id) + ')', 'rubric'],
    ['Tests passed', arr(r.tests).filter(function (t) { return obj(t).status === 'passed'; }).length + '/' + arr(r.tests).length, 'tests'],
    ['Graded at', str(r.generatedAt), 'generated-at'],
  ], 'data-field'));

  var errs = arr(r.errors).map(obj);
  if (errs.length) add(s, add(part('errors', 'Errors'), table('errors', ['Code', 'Message'], errs.map(function (e) { return [str(e.code), h('pre', 'msg', e.message)]; }))));

  var flags = arr(r.flags).map(obj), fp = part('flags', 'Flags (' + flags.length + ')');
  if (!flags.length) add(fp, h('p', 'none', 'No flags.'));
  else {
    var ft = table('flags', ['Code', 'Severity', 'Message', 'Claim', 'Evidence'], []);
    flags.forEach(function (f) {
      var tr = row([h('code', null, f.code), str(f.severity), str(f.message), f.claim ? h('q', null, f.claim) : '', evLinks(f.evidence)]);
      tr.setAttribute('class', 'sev-' + known(f.severity, ['info', 'warning', 'critical']));
      add(ft.lastChild, tr);
    });
    add(fp, ft);
  }
  add(s, fp);

  var sp = part('scores', 'Scores'), cw = obj(obj(r.rubric).criteria);
  add(sp, table('scores', ['Criterion', 'Deterministic', 'LLM', 'Final'], CRIT.map(function (c) {
    return [c, fmt(det[c]), llm ? fmt(llm[c]) : '\u2014', fmt(pc[c])];
  }).concat([['total', fmt(det.total), llm ? fmt(llm.total) : '\u2014', fmt(sc.final)]])));
  add(sp, kv([
    ['Blend weights', 'deterministic ' + fmt(w.deterministic) + ', LLM ' + fmt(w.llm)], ['LLM applied', yes(bl.applied)],
    ['Blend reason', str(bl.reason), 'blend-reason'], ['Basis', str(sc.basis)],
  ].concat(sc.quality ? [['Quality', str(obj(sc.quality).reason), 'quality']] : [], arr(sc.unmeasured).length ? [['Not measured', arr(sc.unmeasured).map(function (u) { return str(obj(u).criterion) + ': ' + str(obj(u).reason); }).join('; '), 'unmeasured']] : [],
    Object.keys(cw).length ? [['Criteria weights', Object.keys(cw).map(function (k) { return k + ' ' + fmt(cw[k]); }).join(', ')]] : []), 'data-field'));
  add(s, sp);

  add(s, judgePart(obj(r.judge), evLinks));
  add(s, tests);
  var sbp = part('sandbox-run', 'Sandbox');
  add(sbp, kv([['Backend', str(sb.backend)], ['Runs', fmt(sb.runs)],
    ['Limits', Object.keys(obj(sb.limits)).map(function (k) { return k + '=' + str(obj(sb.limits)[k]); }).join(', ')]]));
  add(s, sbp, sand, lint, fns, pol);

  var hp = part('hashes', 'Hashes and provenance'), files = arr(sub.files).map(obj);
  add(hp, kv([['Evidence hash', h('code', 'hash', obj(r.evidence).hash), 'evidence-hash'], ['Submission sha256', h('code', 'hash', sub.sha256), 'submission-sha256'],
    ['Rubric sha256', h('code', 'hash', obj(r.rubric).sha256), 'rubric-sha256']], 'data-hash'));
  add(hp, table('files', ['File', 'Bytes', 'sha256'], files.map(function (f) { return [str(f.path), fmt(f.bytes), h('code', 'hash', f.sha256)]; })));
  if (arr(sub.ignored).length) add(hp, h('p', 'ignored', 'Ignored: ' + arr(sub.ignored).map(str).join(', ')));
  var tools = obj(r.tools), tim = obj(r.timings);
  add(hp, kv([['Tools', Object.keys(tools).map(function (k) { return k + ' ' + str(tools[k]); }).join(', ')],
    ['Timings (ms)', Object.keys(tim).map(function (k) { return k + '=' + str(tim[k]); }).join(', ')]]));
  add(s, hp);
  return s;
}

function judgePart(j, evLinks) {
  var p = part('judge', 'LLM judge'), tk = obj(j.tokens), out = j.output ? obj(j.output) : null;
  add(p, kv([['Status', str(j.status), 'judge-status'], ['Reason', str(j.reason)], ['Model', j.model ? str(j.model) : '\u2014'],
    ['Prompt version', str(j.promptVersion)], ['Cached', yes(j.cached)],
    ['Tokens', 'prompt ' + fmt(tk.prompt) + ', completion ' + fmt(tk.completion)], ['Cost (USD)', fmt(j.costUsd)]], 'data-field'));
  var at = arr(j.attempts).map(obj);
  if (at.length) {
    add(p, h('h4', null, 'Attempts'), table('attempts', ['#', 'Model', 'Judge', 'Outcome', 'Latency (ms)', 'Prompt tokens', 'Completion tokens', 'HTTP status', 'Error'],
      at.map(function (a, k) { return [String(k + 1), str(a.model), str(a.judge), str(a.outcome), fmt(a.latencyMs), fmt(a.promptTokens), fmt(a.completionTokens), fmt(a.status), str(a.error)]; })));
  }
  if (!out) return p;
  var os = obj(out.scores);
  add(p, h('h4', null, 'Judge output'), kv([
    ['Scores', CRIT.map(function (c) { return c + ' ' + fmt(os[c]); }).join(', ')], ['Confidence', fmt(out.confidence)],
    ['Insufficient evidence', yes(out.insufficient_evidence)]]), h('p', 'judge-summary', out.summary));
  var ul = h('ul', 'claims');
  arr(out.claims).map(obj).forEach(function (c) {
    var li = h('li', 'claim ' + known(c.polarity, ['strength', 'weakness']));
    add(li, h('span', 'crit', str(c.criterion) + ' \u00B7 ' + str(c.polarity) + ': '), h('span', 'claim-text', c.text), D.createTextNode(' '), evLinks(c.evidence));
    add(ul, li);
  });
  return add(p, ul);
}

function boot() {
  var el = D.getElementById('data');
  try { DATA = obj(JSON.parse(el ? el.textContent : '{}')); } catch (e) { DATA = {}; }
  REPORTS = arr(DATA.reports);
  REPORTS.forEach(function (r, i) { KEYS.push(keyFor(str(obj(obj(r).submission).id), i)); });
  var app = D.getElementById('app');
  OVERVIEW = buildOverview();
  add(app, OVERVIEW);
  REPORTS.forEach(function (r, i) { var s = buildSubmission(r, i); SECTIONS.push(s); add(app, s); });
  applyFilter();
  window.addEventListener('hashchange', route);
  route();
}
`;
