// runHostNode (code-cache.ts) feeds a child of our own its input on stdin: warm-ups, snapshot builds and the check of a
// snapshot blob kept from an earlier run. A blob that no longer starts makes the child die before it reads anything;
// the write then fails with EPIPE, and an unhandled 'error' on the pipe ended the whole grader (seen once in the
// fresh-machine run, on the harness-snapshot test's "makes a new one when it does not start").
import { describe, expect, it } from 'vitest';
import { runHostNode } from '../../src/adapters/sandbox/code-cache.js';

describe('runHostNode', () => {
  it('a child that exits without reading its input: its exit code, no unhandled EPIPE', async () => {
    // More than a pipe holds, so the write is still going on when the child is gone.
    const run = await runHostNode(['-e', 'process.exit(7)'], { input: 'x'.repeat(1 << 20) });
    expect(run.code).toBe(7);
  });
});
