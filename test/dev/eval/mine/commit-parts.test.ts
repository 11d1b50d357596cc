/**
 * A commit's two halves: tests and the rest. A CI pipeline edit is in neither: no test
 * command reads it, and test-integrity refuses a CI edit the issue did not ask for, so a
 * gold patch holding one was refused on itoa's history (`.travis.yml`, `.github/workflows/ci.yml`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitParts, isCandidate, patchOf } from '../../../../src/dev/eval/mine/commit-parts.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

test('the fix and its test, without the CI pipelines the commit also edited', async () => {
  const repo = await makeTempGitRepo({
    files: {
      'src/lib.rs': 'pub fn one() -> u8 { 1 }\n',
      'tests/test.rs': '#[test]\nfn one() { assert_eq!(itoa::one(), 1); }\n',
      '.travis.yml': 'script: cargo test --features i128\n',
      '.github/workflows/ci.yml': 'run: cargo test --features i128\n',
    },
  });
  try {
    await repo.write({
      'src/lib.rs': 'pub fn one() -> u8 { 1 }\npub fn two() -> u8 { 2 }\n',
      'tests/test.rs': '#[test]\nfn two() { assert_eq!(itoa::two(), 2); }\n',
      '.travis.yml': 'script: cargo test\n',
      '.github/workflows/ci.yml': 'run: cargo test\n',
      'README.md': '# itoa\n',
    });
    await repo.git('commit', '-qam', 'Enable two unconditionally');
    const parts = await commitParts(repo.dir, await repo.git('rev-parse', 'HEAD'));
    assert.ok(parts);
    assert.deepEqual(parts.testFiles, ['tests/test.rs']);
    assert.deepEqual(parts.otherFiles, ['README.md', 'src/lib.rs']);
    assert.equal(isCandidate(parts), true);
    const gold = await patchOf(repo.dir, parts, parts.otherFiles);
    assert.doesNotMatch(gold, /travis|workflows/);
  } finally {
    await repo.cleanup();
  }
});
