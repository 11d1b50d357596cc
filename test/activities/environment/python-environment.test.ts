/**
 * The environment phase on a real Python project (pyproject.toml, src layout, a `test`
 * extra with six; pytest used but not declared): a venv outside the worktree with the
 * project installed editable FROM THE WORKTREE, pytest added and said so; inside the
 * sandbox `sys.prefix` is the venv (pyvenv.cfg visible) and the package is imported
 * from the worktree, not the user's checkout; a second worktree uses the warm pip cache.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
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
    'name = "envdemo"',
    'version = "0.1.0"',
    '',
    '[project.optional-dependencies]',
    'test = ["six==1.16.0"]',
    '',
  ].join('\n'),
  '.gitignore': '*.egg-info/\n__pycache__/\n',
  'src/envdemo/__init__.py': 'def double(x):\n    return 2 * x\n',
  'tests/test_double.py': 'import six\nfrom envdemo import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
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

test('a venv with the worktree installed editable; pytest runs in the sandbox with sys.prefix = the venv', async () => {
  const wt = await project.worktree();
  const cold = await prepareEnvironment({ worktreePath: wt, repoPath: project.repo.dir });
  const said = cold.detected.join('\n');
  assert.match(said, /python: pyproject\.toml: a virtualenv /);
  assert.match(said, /editable from the worktree with extras test/);
  assert.match(said, /pytest but the project does not declare it: pytest added/);
  const venv = cold.sandbox.env['VIRTUAL_ENV'];
  assert.ok(venv !== undefined && !venv.startsWith(wt), `venv outside the worktree: ${venv}`);
  assert.equal(cold.cached, false);
  assert.deepEqual(cold.warnings, [], 'the egg-info is ignored by the project');

  const probe = await runInSandbox(
    wt,
    "python -c \"import sys, envdemo; print('prefix=' + sys.prefix); print('file=' + envdemo.__file__)\"",
  );
  assert.equal(probe.exitCode, 0, probe.output);
  assert.match(probe.output, new RegExp(`^prefix=${venv}$`, 'm'));
  assert.match(probe.output, new RegExp(`^file=${path.join(wt, 'src', 'envdemo', '__init__.py')}$`, 'm'));
  const tests = await runInSandbox(wt, 'pytest -q');
  assert.equal(tests.exitCode, 0, tests.output);
  assert.match(tests.output, /1 passed/);

  const second = await project.worktree();
  const warm = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  const install = warm.steps.find((s) => / -m pip .*install /.test(s.command));
  assert.equal(install?.cacheHit, true, JSON.stringify(warm.steps));
  assert.match(install?.reused.join('\n') ?? '', /pip cache/);
  assert.equal(warm.cached, true);
  console.log(`python setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
