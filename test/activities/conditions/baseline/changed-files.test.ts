/** A branch's changed files told apart as tests and code, on a real repository: Rust's in-file tests, untracked files, docs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedFiles } from '../../../../src/activities/conditions/baseline/changed-files.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

const LIB =
  'pub fn value() -> u32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn two() {\n        assert_eq!(super::value(), 2);\n    }\n}\n';

test('a .rs file changed only inside #[cfg(test)] is a test file; changed in its code, or new with code, it is code', async () => {
  const repo = await makeTempGitRepo({ files: { 'src/lib.rs': LIB, 'src/util.rs': 'pub fn u() {}\n' } });
  try {
    await repo.write({
      'src/lib.rs': LIB.replace('assert_eq!(super::value(), 2)', 'assert_eq!(super::value(), 1)'),
      'README.md': 'docs only\n',
      'tests/extra.rs': '#[test]\nfn t() {}\n',
      'src/new_tests.rs': '#[cfg(test)]\nmod more {\n}\n',
      'src/new_code.rs': 'pub fn n() {}\n',
    });
    await repo.git('add', 'src/lib.rs', 'README.md');
    await repo.git('commit', '-qm', 'expect what the code does');
    const changed = await changedFiles(repo.dir, 'HEAD~1');
    assert.deepEqual(changed, {
      tests: ['src/lib.rs', 'src/new_tests.rs', 'tests/extra.rs'],
      code: ['src/new_code.rs'],
    });
    await repo.write({
      'src/lib.rs': LIB.replace('    1\n', '    1 // fixed\n').replace('value(), 2)', 'value(), 1)'),
    });
    const both = await changedFiles(repo.dir, 'HEAD~1');
    assert.ok(both?.code.includes('src/lib.rs'), 'a change of the code beside the test rewrite is code');
    assert.ok(both?.tests.includes('src/lib.rs'), 'and of the tests');
    assert.equal(
      both?.testsOnBaseCode?.['src/lib.rs'],
      LIB.replace('value(), 2)', 'value(), 1)'),
      "for the run on the base's code: the base's code, the branch's test",
    );
  } finally {
    await repo.cleanup();
  }
});
