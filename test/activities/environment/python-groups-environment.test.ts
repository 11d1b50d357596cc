/**
 * The environment phase on a real project whose test dependencies are only a PEP 735
 * dependency group (`[dependency-groups] tests = ["freezegun", "pytest"]`, as pallets
 * projects write them): without the group installed its tests fail to import freezegun;
 * with it, `python -m pytest` passes inside the agent's sandbox.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import {
  makeProject,
  removeTempStateDir,
  runInSandbox,
  useTempStateDir,
  type Project,
} from './environment-fixtures.js';

const FILES = {
  'pyproject.toml': [
    '[build-system]',
    'requires = ["setuptools>=61"]',
    'build-backend = "setuptools.build_meta"',
    '',
    '[project]',
    'name = "groupdemo"',
    'version = "0.1.0"',
    '',
    '[dependency-groups]',
    'dev = ["ruff"]',
    'tests = ["freezegun", "pytest"]',
    '',
  ].join('\n'),
  '.gitignore': '*.egg-info/\n__pycache__/\n',
  'src/groupdemo/__init__.py': 'import datetime\n\n\ndef today():\n    return datetime.date.today()\n',
  'tests/test_today.py': [
    'import datetime',
    '',
    'from freezegun import freeze_time',
    '',
    'from groupdemo import today',
    '',
    '',
    '@freeze_time("2020-02-29")',
    'def test_today():',
    '    assert today() == datetime.date(2020, 2, 29)',
    '',
  ].join('\n'),
};

let project: Project;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  project = await makeProject(FILES);
});

after(async () => {
  await project.cleanup();
  await removeTempStateDir();
});

test('the tests dependency group is installed; python -m pytest passes in the sandbox', async () => {
  const wt = await project.worktree();
  const report = await prepareEnvironment({ worktreePath: wt, repoPath: project.repo.dir });
  const said = report.detected.join('\n');
  assert.match(said, /\[dependency-groups\] tests installed .*; not dev/);
  assert.doesNotMatch(said, /pytest added/);
  assert.deepEqual(report.warnings, []);
  const run = await runInSandbox(wt, 'python -m pytest -q');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, /1 passed/);
  const ruff = await runInSandbox(wt, 'python -c "import ruff"');
  assert.notEqual(ruff.exitCode, 0, 'the dev group is not installed when a tests group exists');
});
