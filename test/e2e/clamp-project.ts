/**
 * The npm + mocha project the mocha e2e tests share: `clamp()` with a planted bug (it
 * ignores the upper bound), its mocha tests, and the origin's lockfile made at set-up
 * from the registry (never committed here).
 */
import { execa } from 'execa';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';

export const CLAMP_BUGGY = 'return Math.max(value, lo);';
export const CLAMP_RIGHT = 'return Math.min(Math.max(value, lo), hi);';

export const CLAMP_PACKAGE = {
  name: 'e2e-clamp',
  version: '1.0.0',
  private: true,
  scripts: { test: 'mocha' },
  dependencies: { 'is-number': '7.0.0' },
  devDependencies: { mocha: '10.8.2' },
};

export const CLAMP_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify(CLAMP_PACKAGE, null, 2)}\n`,
  '.gitignore': 'node_modules/\n',
  'lib/clamp.js': [
    "const isNumber = require('is-number');",
    '',
    'module.exports = function clamp(value, lo, hi) {',
    "  if (!isNumber(value)) throw new TypeError('not a number');",
    `  ${CLAMP_BUGGY}`,
    '};',
    '',
  ].join('\n'),
  'test/clamp.test.js': [
    "const assert = require('node:assert/strict');",
    "const clamp = require('../lib/clamp');",
    '',
    "describe('clamp', () => {",
    "  it('raises values below the range', () => assert.equal(clamp(-5, 0, 10), 0));",
    "  it('lowers values above the range', () => assert.equal(clamp(15, 0, 10), 10));",
    '});',
    '',
  ].join('\n'),
};

/** The origin's `package-lock.json`, resolved from the registry as a user would make it. */
export async function lockClampOrigin(repo: TempGitRepo): Promise<void> {
  await execa('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: repo.dir,
  });
}
