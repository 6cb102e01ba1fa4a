// esbuild options shared by the CommonJS bundles node loads as one script (the sandbox harness, the lint thread's
// ESLint): whitespace and syntax minified only, so identifiers (every function and class name a message or stack
// trace prints) stay as written.
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
