/**
 * Python + pytest, as a new user meets it: a pyproject.toml project (src layout,
 * setuptools, a PEP 735 `tests` dependency group with pytest and freezegun) on a fresh
 * clone with nothing installed.
 *   - a planted bug and a scripted fix: the environment phase makes a virtualenv for the
 *     worktree with the project installed editable from it, the preflight keeps the red
 *     test on main as the baseline, and the run delivers a branch whose diff is the fix;
 *   - a wrong first fix that breaks a passing test: the closure's retry prompt names it
 *     by its pytest node id, and the right fix after it lets the run succeed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { RETRY_NAMES_TEST, wrongThenRightSession } from './retry-fix-session.js';
import { assertSucceeded } from './run-diagnosis.js';

const PYPROJECT = `[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "e2e-age"
version = "1.0.0"
requires-python = ">=3.9"

[dependency-groups]
tests = ["pytest==8.3.3", "freezegun==1.5.1"]

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
testpaths = ["tests"]
`;

const BUGGY = 'return today.year - born.year';
const RIGHT = 'return today.year - born.year - ((today.month, today.day) < (born.month, born.day))';

const FILES = {
  'pyproject.toml': PYPROJECT,
  '.gitignore': '__pycache__/\n*.egg-info/\n.pytest_cache/\nbuild/\n',
  'src/e2e_age/__init__.py': [
    'import datetime',
    '',
    '',
    'def age(born: datetime.date) -> int:',
    '    """Whole years from `born` until today."""',
    '    today = datetime.date.today()',
    `    ${BUGGY}`,
    '',
  ].join('\n'),
  'tests/test_age.py': [
    'import datetime',
    '',
    'from freezegun import freeze_time',
    '',
    'from e2e_age import age',
    '',
    '',
    '@freeze_time("2024-06-15")',
    'def test_age_after_birthday():',
    '    assert age(datetime.date(2000, 1, 1)) == 24',
    '',
    '',
    '@freeze_time("2024-06-15")',
    'def test_age_before_birthday():',
    '    assert age(datetime.date(2000, 12, 31)) == 23',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'age() counts a year too many before the birthday',
  body: 'On 2024-06-15, age(date(2000, 12, 31)) returns 24; it should return 23 (tests/test_age.py::test_age_before_birthday fails).',
};
const PATH = 'src/e2e_age/__init__.py';

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(FILES);
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a fresh clone: a venv with the worktree installed editable, the red test kept as the baseline, the fix delivered', async () => {
  const session = fixSession({ name: 'age', fix: { path: PATH, old: BUGGY, new: RIGHT }, testCommand: 'pytest' });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), [PATH]);
  const environment = (run.result?.environment ?? []).join('\n');
  assert.match(environment, /a virtualenv \S+venv for this worktree/);
  assert.match(environment, /installed editable from the worktree/);
  assert.match(environment, /\[dependency-groups\] tests installed/);
  assert.match(environment, /preflight: tests: baseline .*tests\/test_age\.py::test_age_before_birthday/);
});

test('a wrong first fix: the retry prompt names the broken test by its pytest node id, the right fix succeeds', async () => {
  const session = wrongThenRightSession({
    name: 'age',
    path: PATH,
    // Right before the birthday, wrong after it: test_age_after_birthday passed on main.
    wrong: { old: BUGGY, new: 'return today.year - born.year - 1' },
    right: { old: 'return today.year - born.year - 1', new: RIGHT },
    testCommand: 'pytest',
    failingTest: 'tests/test_age.py::test_age_after_birthday',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.byRule[RETRY_NAMES_TEST], 1, `retry prompt did not name the test: ${JSON.stringify(run.byRule)}`);
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), [PATH]);
});
