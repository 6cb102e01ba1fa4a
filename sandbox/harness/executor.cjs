'use strict';
// Runs one registered file in Jest's order: beforeAll (outer first), then per
// test beforeEach (outer→inner), the test, afterEach (inner→outer), then afterAll.
const P = require('./primordials.cjs');
const { effectiveMode, callWithTimeout, pathOf, markOf } = require('./runner.cjs');

// Frames of the harness and of Node itself say nothing about the student's code
// and would make reports differ between machines; only the test's and the
// submission's frames are kept.
const NOISE_FRAME = /^\s+at .*(?:harness\.cjs|boot\.cjs|node:internal|\(native\)|<anonymous>|new Promise)/;

function errorText(e) {
  try {
    return errorTextOf(e);
  } catch {
    return 'the thrown value could not be described';
  }
}

function errorTextOf(e) {
  if (!e) return '';
  const msg = typeof e.message === 'string' ? e.message : P.String(e);
  const stack = typeof e.stack === 'string' ? e.stack : '';
  const full = stack.indexOf(msg) >= 0 ? stack : msg + '\n' + stack;
  const lines = P.StringSplit(full, '\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    if (NOISE_FRAME.test(lines[i])) continue;
    out += (out ? '\n' : '') + lines[i];
  }
  return P.StringSlice(out, 0, 4000);
}

function createExecutor(ctx) {
  // ctx: { send, integrity, expectState, hasOnly, current(testOrNull), only: Set|null, stopped?(), onFailure?() }
  async function runHooks(list, defaultTimeout, what) {
    for (let i = 0; i < list.length; i++) {
      const h = list[i];
      const err = await callWithTimeout(h.fn, h.timeout || defaultTimeout, what);
      if (err) return err;
    }
    return null;
  }

  function beforeEachChain(test) {
    const blocks = [];
    for (let b = test.parent; b; b = b.parent) blocks.unshift(b);
    return blocks;
  }

  async function runTest(test, inherited, state) {
    const mode = effectiveMode(test, state.hasOnly);
    const base = { index: test.index, file: test.file, path: pathOf(test) };
    if (ctx.only && !ctx.only.has(test.index)) return;
    // A rubric audit asking only "killed or not" (payload.stopAtFirstFailure): the tests after the first
    // failure send nothing; the grader reads them as not run.
    if (ctx.stopped && ctx.stopped()) return;
    if (mode !== 'run') {
      ctx.send('result', { ...base, status: 'skipped', durationMs: 0, message: mode === 'todo' ? 'todo' : 'skipped' });
      return;
    }
    const blocks = beforeEachChain(test);
    // The test's own limit: the rubric's for this test (payload.testTimeouts), else its own third argument, else the
    // default. Announced with the most its hooks and body may take together: the grader stops a test that runs past
    // them from outside (a loop that never yields; adapters/sandbox/test-watch.ts).
    // A node:test test has no limit in the job (Infinity, as node:test); the rubric's bounds it from outside.
    const timeout = (ctx.timeoutOf && ctx.timeoutOf(test)) || test.timeout || state.defaultTimeout;
    const limit = timeout !== Infinity ? timeout : ctx.rubricTimeout;
    let budget = limit;
    for (let i = 0; i < blocks.length; i++) {
      for (const hooks of [blocks[i].beforeEach, blocks[i].afterEach]) {
        for (let j = 0; j < hooks.length; j++) {
          const ms = hooks[j].timeout || state.defaultTimeout;
          if (ms !== Infinity) budget += ms;
        }
      }
    }
    ctx.send('start', limit > 0 ? { index: test.index, file: test.file, timeoutMs: limit, budgetMs: budget } : { index: test.index, file: test.file });
    const start = P.hrtime();
    ctx.setCurrent(test);
    ctx.resetExpect(test);
    let err = inherited;
    let ranTo = -1;
    for (let i = 0; i < blocks.length && !err; i++) {
      ranTo = i;
      err = await runHooks(blocks[i].beforeEach, state.defaultTimeout, 'hook');
    }
    if (!err) {
      err = await callWithTimeout(test.fn, timeout, 'test');
      const late = ctx.takeUncaught();
      if (!err && late) err = late;
      if (!err) err = ctx.expectErrors();
    }
    for (let i = ranTo; i >= 0; i--) {
      const e2 = await runHooks(blocks[i].afterEach, state.defaultTimeout, 'hook');
      if (!err && e2) err = e2;
    }
    ctx.setCurrent(null);
    let status = err ? markOf(err) || 'failed' : 'passed';
    let message = err ? errorText(err) : '';
    if (test.failing) {
      status = err ? 'passed' : 'failed';
      message = err ? '' : 'Failing test passed even though it was supposed to fail. Remove `.failing` to remove error.';
    }
    const violation = ctx.integrity.verify();
    if (violation) ctx.send('tamper', { code: 'tampering.intrinsics', detail: violation, index: test.index });
    const [s, ns] = P.hrtime(start);
    ctx.send('result', { ...base, status, durationMs: Math.round(s * 1000 + ns / 1e6), message });
    if (status !== 'passed' && ctx.onFailure) ctx.onFailure();
  }

  function hasRunnable(block, state) {
    if (ctx.stopped && ctx.stopped()) return false;
    for (let i = 0; i < block.children.length; i++) {
      const c = block.children[i];
      if (c.kind === 'test') {
        if (effectiveMode(c, state.hasOnly) === 'run' && (!ctx.only || ctx.only.has(c.index))) return true;
      } else if (hasRunnable(c, state)) return true;
    }
    return false;
  }

  async function runBlock(block, inherited, state) {
    let err = inherited;
    const active = hasRunnable(block, state);
    if (active && !err) err = await runHooks(block.beforeAll, state.defaultTimeout, 'hook');
    for (let i = 0; i < block.children.length; i++) {
      const c = block.children[i];
      if (c.kind === 'test') await runTest(c, err, state);
      else await runBlock(c, err, state);
    }
    if (active) {
      const e2 = await runHooks(block.afterAll, state.defaultTimeout, 'hook');
      if (e2) ctx.send('fileError', { file: state.file, message: 'afterAll hook failed: ' + errorText(e2) });
    }
  }

  return { runFile: (state) => runBlock(state.root, null, state) };
}

module.exports = { createExecutor, errorText };
