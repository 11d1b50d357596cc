#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob support
// in --test). Extra arguments are passed through (e.g. --test-name-pattern=...).
//
// Files run TEST_CONCURRENCY at a time (default 2: most of a file's time is spent waiting
// on a Temporal server, a worker or a child process, so two share the machine's cores
// well). Every file is independent: each starts its own Temporal dev server on a free
// port, uses its own temp dirs and task queues. The slow directories start first, so the
// last files to finish are short ones. TEST_CONCURRENCY=1 runs them one at a time.
//
// The workflow bundle is built (or found, kept by content) once, before the files start,
// and its path passed to every test process and every worker they start
// (ISSUE_AGENT_WORKFLOW_BUNDLE; test/helpers/workflow-bundle-cache.ts): webpack then runs
// at most once per change of src/, not in every worker child.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildCompiledTestTree, removeCompiledTestTree } from './compiled-test-tree.mjs';

/** Directories whose files start Temporal servers, workers or whole runs: started first. */
const SLOW_FIRST = ['test/e2e/', 'test/cli/', 'test/workflows/', 'test/chaos/', 'test/worker/'];

function find(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : find(path);
      return name.endsWith('.test.ts') ? [relative(process.cwd(), path)] : [];
    });
}

const rank = (file) => {
  const i = SLOW_FIRST.findIndex((dir) => file.startsWith(dir));
  return i === -1 ? SLOW_FIRST.length : i;
};

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
const files = find('test')
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(
    `TEST_CONCURRENCY must be a whole number of files at a time (1 or more), not "${process.env.TEST_CONCURRENCY}"`,
  );
  process.exit(2);
}
const bundle = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/workflow-bundle-cache.ts'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const bundlePath = bundle.status === 0 ? bundle.stdout.trim() : '';
if (bundlePath === '') console.error('# no workflow bundle kept for the suite: each worker bundles its own');
const cliBundle = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/cli-bundle-cache.ts'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const cliBundlePath = cliBundle.status === 0 ? cliBundle.stdout.trim() : '';
if (cliBundlePath === '')
  console.error('# no CLI bundle kept for the suite: the CLI tests run src/client.ts under tsx');
// The Temporal CLI, resolved once for the suite: each test file would otherwise run
// setup-temporal.mjs (a node process and `temporal --version`, ~0.5 s blocking its main
// thread) before its dev server starts (test/helpers/temporal-env.ts).
const temporalCli = spawnSync(process.execPath, ['scripts/setup-temporal.mjs', '--quiet'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const temporalCliPath = temporalCli.status === 0 ? (temporalCli.stdout.trim().split('\n').pop() ?? '') : '';
// The files run compiled (scripts/compiled-test-tree.mjs: no tsx loader in ~380 processes),
// unless TEST_LOADER=tsx asks for the sources themselves.
const loader = process.env.TEST_LOADER ?? 'compiled';
if (loader !== 'compiled' && loader !== 'tsx') {
  console.error(`TEST_LOADER must be "compiled" (the default) or "tsx", not "${loader}"`);
  process.exit(2);
}
let runArgs = ['--import', 'tsx'];
let runFiles = files;
let tree;
if (loader === 'compiled') {
  tree = await buildCompiledTestTree(process.cwd());
  // A failure's location and stack name the .ts file and line (esbuild's source maps).
  runArgs = ['--enable-source-maps'];
  runFiles = files.map((file) => join(relative(process.cwd(), tree), file.replace(/\.ts$/, '.js')));
}
const result = spawnSync(
  process.execPath,
  [
    ...runArgs,
    '--test',
    `--test-concurrency=${concurrency}`,
    // Per test, and per file as a whole (node counts a file as one test of the run).
    '--test-timeout=900000',
    // TAP as before, then the names of whatever did not pass, then the slowest files, at the very end of the log.
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-failure-summary.mjs',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-file-times.mjs',
    '--test-reporter-destination=stdout',
    ...flags,
    ...runFiles,
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(bundlePath ? { ISSUE_AGENT_WORKFLOW_BUNDLE: bundlePath } : {}),
      ...(cliBundlePath ? { ISSUE_AGENT_TEST_CLI_BUNDLE: cliBundlePath } : {}),
      ...(temporalCliPath ? { ISSUE_AGENT_TEST_DEV_SERVER_CLI: temporalCliPath } : {}),
    },
  },
);
if (tree !== undefined) removeCompiledTestTree(tree);
process.exit(result.status ?? 1);
