/**
 * The environment phase on a real Python project (pyproject.toml, src layout, a `test`
 * extra with six; pytest used but not declared): a venv outside the worktree with the
 * project installed editable FROM THE WORKTREE, pytest added and said so; inside the
 * sandbox `sys.prefix` is the venv (pyvenv.cfg visible) and the package is imported
 * from the worktree, not the user's checkout; a second worktree uses the warm pip cache.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { assertPassesInSandbox, setuptoolsPyproject, useEnvironmentProject } from './environment-fixtures.js';

const env = useEnvironmentProject({
  'pyproject.toml': setuptoolsPyproject('envdemo', '[project.optional-dependencies]', 'test = ["six==1.16.0"]'),
  '.gitignore': '*.egg-info/\n__pycache__/\n',
  'src/envdemo/__init__.py': 'def double(x):\n    return 2 * x\n',
  'tests/test_double.py': 'import six\nfrom envdemo import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
});

test('a venv with the worktree installed editable; pytest runs in the sandbox with sys.prefix = the venv', async () => {
  const wt = await env.project.worktree();
  const cold = await env.prepare(wt);
  const said = cold.detected.join('\n');
  assert.match(said, /python: pyproject\.toml: a virtualenv /);
  assert.match(said, /editable from the worktree with extras test/);
  assert.match(said, /pytest but the project does not declare it: pytest added/);
  const venv = cold.sandbox.env['VIRTUAL_ENV'];
  assert.ok(venv !== undefined && !venv.startsWith(wt), `venv outside the worktree: ${venv}`);
  assert.equal(cold.cached, false);
  assert.deepEqual(cold.warnings, [], 'the egg-info is ignored by the project');

  await assertPassesInSandbox(
    wt,
    "python -c \"import sys, envdemo; print('prefix=' + sys.prefix); print('file=' + envdemo.__file__)\"",
    new RegExp(`^prefix=${venv}$`, 'm'),
    new RegExp(`^file=${path.join(wt, 'src', 'envdemo', '__init__.py')}$`, 'm'),
  );
  await assertPassesInSandbox(wt, 'pytest -q', /1 passed/);

  const second = await env.project.worktree();
  const warm = await env.prepare(second);
  const install = warm.steps.find((s) => / -m pip .*install /.test(s.command));
  assert.equal(install?.cacheHit, true, JSON.stringify(warm.steps));
  assert.match(install?.reused.join('\n') ?? '', /pip cache/);
  assert.equal(warm.cached, true);
  console.log(`python setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms`);
});
