#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import('../dist/main.js')
  .then((m) => m.run(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(err?.stack ?? String(err));
      process.exitCode = 70;
    },
  );
