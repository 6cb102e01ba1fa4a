// esbuild options shared by the bundles node loads: the CommonJS ones it loads as one script (the sandbox harness,
// the lint thread's ESLint), and the grader's own (build-cli-bundle.mjs, which makes it code-split ES modules).
// Whitespace and syntax minified only, so identifiers (every function and class name a message or stack trace
// prints) stay as written.
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};
