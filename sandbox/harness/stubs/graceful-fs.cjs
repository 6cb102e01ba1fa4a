'use strict';
// Bundled in place of `graceful-fs` (jest-util's and jest-message-util's file reads): its retry queue is for
// processes that open thousands of files; in a job it only patched node:fs at load and loaded node:stream,
// node:assert and node:constants for its polyfills. The harness reads a handful of files.
module.exports = require('node:fs');
