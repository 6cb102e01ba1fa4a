'use strict';
// What a test printed (its own prints and the submission's, stdout and stderr), kept per test and bounded: sent as
// `output` frames between the test's `start` and `result`, as it is written, so a test the grader stops from
// outside (a loop that never yields) keeps what it printed before. Writes outside a test (at import) belong to none.
const P = require('./primordials.cjs');

/** Characters of output kept per test (both streams together); the rest is cut, and the last frame says so. */
const TEST_OUTPUT_CHARS = 4096;

function createTestOutput(send) {
  let test = null;
  let used = 0;
  let cut = false;
  const textOf = (chunk, encoding) => {
    if (typeof chunk === 'string') return chunk;
    if (chunk && typeof chunk.length === 'number') return Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    return '';
  };
  return {
    /** The test now running ({ file, index }), or null between tests. */
    setTest(t) {
      test = t;
      used = 0;
      cut = false;
    },
    /** Called for each write that passed the job's output cap. */
    observe(stream, chunk, encoding) {
      if (!test || cut) return;
      let text = textOf(chunk, encoding);
      if (text.length === 0) return;
      if (text.length > TEST_OUTPUT_CHARS - used) {
        text = P.StringSlice(text, 0, TEST_OUTPUT_CHARS - used);
        cut = true;
      }
      used += text.length;
      send('output', { file: test.file, index: test.index, stream, text, truncated: cut });
    },
  };
}

module.exports = { createTestOutput, TEST_OUTPUT_CHARS };
