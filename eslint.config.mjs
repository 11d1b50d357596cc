// Lint fences. The tree says where code runs; these rules make a wrong import fail
// `npm test` instead of a code review:
// - src/workflows/ is deterministic: no Node built-ins, no I/O packages, no activity,
//   definition-loading, CLI or dev code (Temporal's sandbox would fail at run time, or
//   worse, replay would diverge).
// - Imports point one way: cli, worker, dev → activities | workflows → definition → contracts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Relative imports into these folders (from anywhere below src/). */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;
const restrict = (regexes, message) => ({
  'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
});

export default tseslint.config(
  { ignores: ['node_modules/', '.tools/', '.temporal/', '.artifacts/', 'dist/', 'test/fixtures/', 'eval/repos/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test()/describe() promises are awaited by the runner.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests poke into parsed JSON fixtures of arbitrary shape.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/workflows/**/*.ts'],
    rules: restrict(
      [
        '^(?!\\.|@temporalio/workflow$|@temporalio/common$)',
        folder('activities', 'cli', 'dev', 'worker', 'definition'),
      ],
      'Workflow code is deterministic: import only @temporalio/workflow, @temporalio/common, src/contracts and src/workflows. Do I/O in an activity.',
    ),
  },
  {
    files: ['src/contracts/**/*.ts'],
    rules: restrict(['^(?!\\./)'], 'Contracts are pure shared types: they import only each other.'),
  },
  {
    files: ['src/definition/**/*.ts'],
    rules: restrict(
      [folder('activities', 'workflows', 'cli', 'dev', 'worker')],
      'Definitions sit below workflows and activities: import only src/contracts and src/definition.',
    ),
  },
  {
    files: ['src/activities/**/*.ts'],
    rules: restrict(
      [folder('workflows', 'cli', 'dev', 'worker')],
      'Activities are bound by the worker: import only src/contracts, src/definition and src/activities.',
    ),
  },
);
