/**
 * A Hatch project (hatchling build backend, no lock) whose test tools are only in
 * `[tool.hatch.envs.test]`: pytest, and iniconfig pinned at 2.0.0 there while `[project]`
 * does not name it, with the test script `pytest -q {args:tests}`. Hatch itself is not
 * installed: setup puts the env's dependencies into the run's venv, the detected test
 * command is the script without Hatch, and offline in the sandbox it names the planted
 * failing test. Before this, the venv had no iniconfig and the tests failed to import.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useEnvironmentProject } from './environment-fixtures.js';
import {
  assertLockedOffline,
  detectAndPrepare,
  HATCH_PROJECT,
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const env = useEnvironmentProject(HATCH_PROJECT);

test(
  'hatch env test: its dependencies in the venv, its script the test command; offline it names the failing test',
  { skip },
  async () => {
    const { wt, reasons, report } = await detectAndPrepare(
      env,
      'pytest -q tests',
      /\[tool\.hatch\.envs\.test\] dependencies installed without Hatch: pytest, iniconfig==2\.0\.0/,
    );
    assert.match(reasons.join('\n'), /\[tool\.hatch\.envs\.test\.scripts\] test = "pytest -q \{args:tests\}"/);
    assert.deepEqual(report.warnings, []);

    await assertLockedOffline(wt, 'pytest -q tests');
  },
);
