'use strict';
// What is locked before student code runs, beyond the integrity snapshot.
const P = require('./primordials.cjs');

// Node's own: the tests' global Buffer is the realm's class once tests load (loaders.cjs).
const HostBuffer = Buffer;
const { mark } = require('./runner.cjs');

/** node:assert is used by node:test suites; Node core's own internals use primordials, so freezing suffices. */
function freezeAssert() {
  const assert = require('node:assert');
  P.ObjectFreeze(assert);
  if (assert.strict) P.ObjectFreeze(assert.strict);
  return assert;
}

/**
 * The inspector could read the channel key out of a closure. Every way in is
 * shut: a SIGUSR1 listener stops the signal from starting it, `open`,
 * `Session#connect` and `process._debugProcess` throw. (Module loads of
 * `inspector` are refused separately, by the loaders.)
 */
function shutInspector(onAttempt) {
  process.on('SIGUSR1', () => onAttempt('SIGUSR1 (start the inspector)'));
  const inspector = require('node:inspector');
  const refuse = (what) => function refused() {
    onAttempt(what);
    throw new P.Error('the inspector is not available inside the grading sandbox');
  };
  for (const name of ['connect', 'connectToMainThread']) {
    P.ObjectDefineProperty(inspector.Session.prototype, name, { value: refuse('inspector.Session#' + name), writable: false, configurable: false });
  }
  P.ObjectFreeze(inspector.Session.prototype);
  inspector.open = refuse('inspector.open');
  P.ObjectFreeze(inspector);
  require('node:module').syncBuiltinESMExports();
  P.ObjectDefineProperty(process, '_debugProcess', { value: refuse('process._debugProcess'), writable: false, configurable: false });
}

/** process.exit throws instead of ending the run; the attempt is reported. */
function refuseExit(send) {
  const realExit = process.exit;
  process.exit = function exit(code) {
    send('tamper', { code: 'process_exit_called', detail: 'process.exit(' + P.String(code) + ') was called and refused (the call threw instead of exiting)' });
    throw new P.Error('process.exit(' + P.String(code) + ') was called; Evigrade does not let a submission end the test run');
  };
  return realExit;
}

/**
 * The output cap, counted in job time: beyond it, output is discarded and the
 * running test fails at once, so verdicts do not depend on how fast the grader
 * drains the pipe. (Writes that bypass process.stdout are still capped by the
 * grader, which then kills the job.)
 */
function capOutput(cap, send, failRunning, observe) {
  let used = 0;
  let exceeded = false;
  for (const [stream, name] of [[process.stdout, 'stdout'], [process.stderr, 'stderr']]) {
    const write = stream.write;
    stream.write = function cappedWrite(chunk, encoding, cb) {
      const n = typeof chunk === 'string' ? HostBuffer.byteLength(chunk, typeof encoding === 'string' ? encoding : 'utf8') : (chunk && chunk.length) || 0;
      used += n;
      if (used <= cap) {
        if (observe) observe(name, chunk, encoding);
        return P.ReflectApply(write, this, arguments);
      }
      if (!exceeded) {
        exceeded = true;
        send('limit', { code: 'output_limit', detail: 'output passed ' + cap + ' bytes; further output is discarded' });
        const err = new P.Error('output limit exceeded: the test printed more than ' + cap + ' bytes');
        failRunning(mark(err, 'error'));
      }
      const done = typeof encoding === 'function' ? encoding : cb;
      if (typeof done === 'function') P.setImmediate(done);
      return true;
    };
  }
}

module.exports = { freezeAssert, shutInspector, refuseExit, capOutput };
