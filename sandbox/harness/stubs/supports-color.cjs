'use strict';
// Bundled in place of `supports-color` (chalk's colour probe): a job's output is never a terminal and its
// environment is cleared, so the probe always answers "no colour"; answering without it spares every job
// loading node:tty and node:os for the question.
module.exports = { stdout: false, stderr: false };
