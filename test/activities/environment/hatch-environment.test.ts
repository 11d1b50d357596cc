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
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertPassesInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { mavenPreflight as preflight } from './maven-project.js';
import { CALC_SOURCES, INICONFIG_VERSION, LOCKED_INICONFIG, skipWithoutPypi as skip } from './python-locked-project.js';

const env = useEnvironmentProject({
  ...CALC_SOURCES,
  'pyproject.toml': [
    '[build-system]',
    'requires = ["hatchling"]',
    'build-backend = "hatchling.build"',
    '',
    '[project]',
    'name = "calc"',
    'version = "0.1.0"',
    'requires-python = ">=3.9"',
    '',
    '[tool.hatch.envs.test]',
    `dependencies = ["pytest", "iniconfig==${LOCKED_INICONFIG}"]`,
    '',
    '[tool.hatch.envs.test.scripts]',
    'test = "pytest -q {args:tests}"',
    '',
  ].join('\n'),
});

test(
  'hatch env test: its dependencies in the venv, its script the test command; offline it names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands, reasons } = await detectCommands(wt);
    assert.equal(commands.test, 'pytest -q tests');
    assert.match(reasons.join('\n'), /\[tool\.hatch\.envs\.test\.scripts\] test = "pytest -q \{args:tests\}"/);
    const report = await env.prepare(wt);
    assert.match(
      report.detected.join('\n'),
      /\[tool\.hatch\.envs\.test\] dependencies installed without Hatch: pytest, iniconfig==2\.0\.0/,
    );
    assert.deepEqual(report.warnings, []);

    await assertPassesInSandbox(wt, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);
  },
);
