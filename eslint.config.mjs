// Lint fences. The tree says where code runs; these rules make a wrong import fail
// `npm test` instead of a code review:
// - src/workflows/ is deterministic: no Node built-ins, no I/O packages, no activity,
//   definition-loading, CLI or dev code (Temporal's sandbox would fail at run time, or
//   worse, replay would diverge).
// - Imports point one way, floor by floor:
//   cli → dev → worker → host → activities | workflows → definition → contracts.
//   (src/client.ts and src/worker.ts, the entry points, sit above them all.)
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Relative imports into these folders (from anywhere below src/). */
const folder = (...names) => `(^|/)(${names.join('|')})(/|$)`;
const restrict = (regexes, message) => ({
  'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }],
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.test-build/',
      '.tools/',
      '.temporal/',
      '.artifacts/',
      'dist/',
      'test/fixtures/',
      'eval/repos/',
    ],
  },
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
        folder('activities', 'cli', 'dev', 'worker', 'host', 'definition'),
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
      [folder('activities', 'workflows', 'cli', 'dev', 'worker', 'host')],
      'Definitions sit below workflows and activities: import only src/contracts and src/definition.',
    ),
  },
  {
    files: ['src/activities/**/*.ts'],
    rules: restrict(
      [folder('workflows', 'cli', 'dev', 'worker', 'host')],
      'Activities are bound by the worker: import only src/contracts, src/definition and src/activities.',
    ),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(
      ['(^|/)(client|worker)\\.js$'],
      'Commands are loaded by the entry points (src/client.ts, src/worker.ts): never import an entry point.',
    ),
  },
  {
    files: ['src/host/**/*.ts'],
    rules: restrict(
      [folder('cli', 'dev', 'worker')],
      'The host floor serves cli, worker and dev: it imports only src/host, src/activities, src/workflows, src/definition and src/contracts.',
    ),
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: restrict(
      [folder('cli', 'dev')],
      'A worker is composed below the commands: import src/host and the floors under it, never src/cli or src/dev.',
    ),
  },
  {
    files: ['src/dev/**/*.ts'],
    rules: restrict(
      [folder('cli')],
      'Dev tools (demo, model server, eval) sit below the commands: import src/worker, src/host and the floors under them, never src/cli.',
    ),
  },
);
