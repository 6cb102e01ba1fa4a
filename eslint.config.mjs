// ESLint for Evigrade's own code (students' code is linted by src/adapters/analysis with its own config).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'sandbox/dist/**',
      'sandbox/harness/gen/**',
      'node_modules/**',
      'schemas/**',
      'rubrics/**',
      'submissions/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, NodeJS: 'readonly' } },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The report page's browser code (typed against the DOM by tsconfig.client.json, bundled by scripts/build-client.mjs).
    files: ['src/report/client/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The Jest agreement set: exercises as students and instructors write them, Jest's globals included.
    files: ['tests/agreement/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
  {
    // Students' solutions, some wrong on purpose (implicit globals, ES5 style): graded, not linted for our style.
    files: ['tests/agreement/*/solutions/*.js'],
    rules: { 'no-undef': 'off', 'no-var': 'off' },
  },
  {
    // The in-sandbox harness: CommonJS run by Node inside the job.
    files: [
      'sandbox/harness/**/*.cjs',
      'sandbox/cell/*.cjs',
      'scripts/**/*.cjs',
      'tests/integration/realm-walk*.cjs',
      'tests/fakes/*.cjs',
    ],
    // ses's lockdown() defines harden, lockdown and Compartment on the global object.
    languageOptions: {
      sourceType: 'commonjs',
      globals: { ...globals.node, harden: 'readonly', lockdown: 'readonly', Compartment: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
