/**
 * The environment phase on a real project whose test dependencies are only a PEP 735
 * dependency group (`[dependency-groups] tests = ["freezegun", "pytest"]`, as pallets
 * projects write them): without the group installed its tests fail to import freezegun;
 * with it, `python -m pytest` passes inside the agent's sandbox.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertPassesInSandbox,
  setuptoolsPyproject,
  runInSandbox,
  useEnvironmentProject,
} from './environment-fixtures.js';

const env = useEnvironmentProject({
  'pyproject.toml': setuptoolsPyproject(
    'groupdemo',
    '[dependency-groups]',
    'dev = ["ruff"]',
    'tests = ["freezegun", "pytest"]',
  ),
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
});

test('the tests dependency group is installed; python -m pytest passes in the sandbox', async () => {
  const wt = await env.project.worktree();
  const report = await env.prepare(wt);
  const said = report.detected.join('\n');
  assert.match(said, /\[dependency-groups\] tests installed .*; not dev/);
  assert.doesNotMatch(said, /pytest added/);
  assert.deepEqual(report.warnings, []);
  await assertPassesInSandbox(wt, 'python -m pytest -q', /1 passed/);
  const ruff = await runInSandbox(wt, 'python -c "import ruff"');
  assert.notEqual(ruff.exitCode, 0, 'the dev group is not installed when a tests group exists');
});
