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
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertPassesInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { mavenPreflight as preflight } from './maven-project.js';
import { CALC_SOURCES, INICONFIG_VERSION, LOCKED_INICONFIG, skipWithoutPypi as skip } from './python-locked-project.js';

const env = useEnvironmentProject({
  '.gitignore': '__pycache__/\n',
  'calc.py': CALC_SOURCES['src/calc/__init__.py'] ?? '',
  'tests/test_calc.py': CALC_SOURCES['tests/test_calc.py'] ?? '',
  'ci/test-deps.txt': `iniconfig==${LOCKED_INICONFIG}\n`,
  'tox.ini': [
    '[tox]',
    'envlist = py3',
    '',
    '[testenv]',
    'skip_install = true',
    'deps =',
    '    pytest',
    '    -r{toxinidir}/ci/test-deps.txt',
    'commands =',
    '    python -m pytest -q {posargs:tests}',
    '',
  ].join('\n'),
});

test(
  'tox.ini only: [testenv] deps in the venv, its pytest line the test command; offline it names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    assert.equal(commands.test, 'python -m pytest -q tests');
    const report = await env.prepare(wt);
    assert.match(
      report.detected.join('\n'),
      /tox\.ini \[testenv\] deps installed without tox: pytest, -r ci\/test-deps\.txt/,
    );
    assert.deepEqual(report.warnings, []);

    await assertPassesInSandbox(wt, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);
  },
);
