'use strict';
// Line coverage of the submission's files, for a rubric audit's reference run only (payload.coverage): V8's precise
// block coverage, taken through an inspector session the harness opens before any submission code loads (and
// before shutInspector closes the inspector to everyone else). The reference is trusted code; a graded
// submission's job never has coverage on, so its runs never hold a session.
//
// V8 reports ranges as offsets in the script the Compartment evaluated (the realm's wrapper around the file's
// body). A line is executable when a statement starts on it (acorn's tree of that same wrapper; a function
// declaration is no statement here), covered when the innermost range holding some statement starting on it ran.
const P = require('./primordials.cjs');

/** A coverage session, or why there is none (the job runs under Node's permission model, which refuses it). */
function startCoverage() {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  try {
    session.connect();
  } catch (e) {
    return { error: 'the inspector is not available to this job: ' + ((e && (e.code || e.message)) || P.String(e)) };
  }
  // In-thread sessions answer synchronously: coverage is on before this function returns.
  let failed = null;
  const post = (method, params) => session.post(method, params, (err) => {
    if (err) failed = err;
  });
  post('Profiler.enable', {});
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  if (failed) throw failed;
  const evaluated = new P.SafeMap(); // abs path -> [the wrapper text the Compartment evaluated, where the file's own code starts]
  return {
    onEvaluated: (abs, wrapper, ownFrom) => P.MapSet(evaluated, abs, [wrapper, ownFrom]),
    take(root) {
      let result = null;
      session.post('Profiler.takePreciseCoverage', {}, (err, res) => {
        if (!err) result = res.result;
      });
      session.disconnect();
      return linesOf(result || [], evaluated, root);
    },
  };
}

function linesOf(scripts, evaluated, root) {
  const files = [];
  for (const script of scripts) {
    const known = P.MapGet(evaluated, script.url);
    if (known === undefined) continue;
    const [wrapper, ownFrom] = known;
    const file = script.url.startsWith(root + '/') ? script.url.slice(root.length + 1) : script.url;
    const ranges = [];
    for (const fn of script.functions) for (const r of fn.ranges) P.ArrayPush(ranges, r);
    const top = ranges.length ? ranges[0] : null;
    // The Compartment evaluated exactly this text only if V8's script is as long (SES rewrites a few rare forms).
    if (!top || top.startOffset !== 0 || top.endOffset !== wrapper.length) {
      P.ArrayPush(files, { file, executable: [], hit: [], exact: false });
      continue;
    }
    P.ArrayPush(files, { file, ...statementLines(wrapper, ownFrom, ranges), exact: true });
  }
  return files;
}

/** The count of the innermost range holding `offset` (V8 nests a block's range inside its function's). */
function countAt(ranges, offset) {
  let best = null;
  for (const r of ranges) {
    if (offset < r.startOffset || offset >= r.endOffset) continue;
    if (!best || r.endOffset - r.startOffset <= best.endOffset - best.startOffset) best = r;
  }
  return best ? best.count : 0;
}

function statementLines(wrapper, ownFrom, ranges) {
  const acorn = require('acorn');
  const tree = acorn.parse(wrapper, { ecmaVersion: 'latest', sourceType: 'script', locations: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowHashBang: true });
  const executable = new P.SafeMap(); // line -> covered
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    // The harness's own statements (an ES module's hoisted imports and export bindings) come before `ownFrom`.
    if (isStatement(node) && node.start >= ownFrom) {
      const line = node.loc.start.line;
      const ran = countAt(ranges, node.start) > 0;
      P.MapSet(executable, line, (P.MapGet(executable, line) || false) || ran);
    }
    for (const key of P.ObjectKeys(node)) {
      if (key === 'loc') continue;
      const v = node[key];
      if (P.ArrayIsArray(v)) for (const c of v) visit(c);
      else if (v && typeof v === 'object') visit(v);
    }
  };
  // The wrapper's own expression statement (line 1, `(function (exports, …`) is not the file's: skip the Program's
  // statement and visit the function's body.
  visit(tree.body[0].expression.body);
  const lines = [...executable.keys()].sort((a, b) => a - b);
  return { executable: lines, hit: lines.filter((l) => P.MapGet(executable, l)) };
}

// A function declaration is hoisted, not run where it stands: its body's statements say whether it ran (so a one-line
// function no test calls is an uncovered line, not one its declaration covers).
const NOT_RUN_IN_PLACE = new Set(['BlockStatement', 'EmptyStatement', 'FunctionDeclaration']);
const isStatement = (n) => !NOT_RUN_IN_PLACE.has(n.type) && (n.type.endsWith('Statement') || n.type.endsWith('Declaration'));

module.exports = { startCoverage, countAt };
