/**
 * A small npm project (node:test, no dependencies) with a history to mine:
 *   1. initial: clamp() without an upper bound, a test of the lower bound
 *   2. "clamp() ignores the upper bound": the fix and its test (qualifies: the new test
 *      fails on the parent with only the test change, passes on the commit)
 *   3. "Document clamp() and test a plain value": a comment and a test that already
 *      passed on the parent (a candidate that does not qualify)
 *   4. a README change (not a candidate)
 */
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const PACKAGE = `${JSON.stringify({ name: 'clamp', version: '1.0.0', type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`;

const BUGGY = `export function clamp(value, low, high) {
  if (value < low) return low;
  return value;
}
`;

const FIXED = `export function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}
`;

const TEST_HEAD = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clamp } from '../src/clamp.js';

test('clamp raises values below the range', () => {
  assert.equal(clamp(-5, 0, 10), 0);
});
`;

const UPPER = `
test('clamp lowers values above the range', () => {
  assert.equal(clamp(15, 0, 10), 10);
});
`;

const PLAIN = `
test('clamp keeps values inside the range', () => {
  assert.equal(clamp(5, 0, 10), 5);
});
`;

export async function minedHistory(): Promise<TempGitRepo> {
  const repo = await makeTempGitRepo({
    files: {
      'package.json': PACKAGE,
      'src/clamp.js': BUGGY,
      'test/clamp.test.js': TEST_HEAD,
      '.gitignore': 'node_modules/\n',
    },
  });
  await repo.write({ 'src/clamp.js': FIXED, 'test/clamp.test.js': `${TEST_HEAD}${UPPER}` });
  await repo.git('add', '-A');
  await repo.git(
    'commit',
    '-q',
    '-m',
    'clamp() ignores the upper bound\n\nclamp(15, 0, 10) returns 15; it should return 10.\n\nSigned-off-by: Test User <test@example.com>',
  );
  await repo.write({
    'src/clamp.js': `/** Keeps a value inside [low, high]. */\n${FIXED}`,
    'test/clamp.test.js': `${TEST_HEAD}${UPPER}${PLAIN}`,
  });
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'Document clamp() and test a plain value');
  await repo.write({ 'README.md': '# clamp\n\nKeeps a number in a range.\n' });
  await repo.git('commit', '-qam', 'README');
  return repo;
}
