/**
 * A tox-only project (no pyproject, setup.py or root requirements file): its test deps are
 * only tox.ini `[testenv] deps` (pytest, and `-r ci/test-deps.txt` pinning iniconfig
 * 2.0.0) and its test command only `commands` (`python -m pytest -q {posargs:tests}`). tox
 * is not run: setup puts the deps into the run's venv, the detected command is the pytest
 * line, and offline in the sandbox it names the planted failing test. Before this, tox.ini
 * alone made no Python project (no venv) and the test command was a bare `pytest`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useEnvironmentProject } from './environment-fixtures.js';
import {
  assertLockedOffline,
  detectAndPrepare,
  skipWithoutPypi as skip,
  TOX_PROJECT,
} from './python-locked-project.js';

const env = useEnvironmentProject(TOX_PROJECT);

test(
  'tox.ini only: [testenv] deps in the venv, its pytest line the test command; offline it names the failing test',
  { skip },
  async () => {
    const { wt, report } = await detectAndPrepare(
      env,
      'python -m pytest -q tests',
      /tox\.ini \[testenv\] deps installed without tox: pytest, -r ci\/test-deps\.txt/,
    );
    assert.deepEqual(report.warnings, []);

    await assertLockedOffline(wt, 'python -m pytest -q tests');
  },
);
