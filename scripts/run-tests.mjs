#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob support
// in --test). Extra arguments are passed through (e.g. --test-name-pattern=...).
// Files run one at a time: several start their own Temporal dev server.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function find(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : find(path);
      return name.endsWith('.test.ts') ? [relative(process.cwd(), path)] : [];
    });
}

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
const files = find('test').filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)));
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    '--test-timeout=300000',
    // TAP as before, then the names of whatever did not pass, at the very end of the log.
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-failure-summary.mjs',
    '--test-reporter-destination=stdout',
    ...flags,
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
