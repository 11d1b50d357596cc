/**
 * A nox-only project (noxfile.py, no pyproject, setup.py or requirements file): its test
 * deps are only `session.install(…)` in the `tests` session (pytest, iniconfig pinned to
 * 2.0.0 while newer ones exist) and its test command only `session.run`. Setup fetches the
 * pinned nox from PyPI and runs the session's installs (`nox --install-only -s tests`);
 * offline in the sandbox, `nox -R -s tests` reuses that venv and the preflight names the
 * planted failing test. Before the nox ecosystem module, noxfile.py alone was no project:
 * nothing was set up and no test command was detected.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { NOX_VERSION } from '../../../src/definition/ecosystems/nox-ecosystem.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertPassesInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { mavenPreflight as preflight } from './maven-project.js';
import { CALC_SOURCES, INICONFIG_VERSION, LOCKED_INICONFIG, skipWithoutPypi as skip } from './python-locked-project.js';

const env = useEnvironmentProject({
  '.gitignore': '__pycache__/\n.nox/\n',
  'calc.py': CALC_SOURCES['src/calc/__init__.py'] ?? '',
  'tests/test_calc.py': CALC_SOURCES['tests/test_calc.py'] ?? '',
  'noxfile.py': [
    'import nox',
    '',
    '',
    '@nox.session',
    'def lint(session):',
    '    session.install("ruff")',
    '    session.run("ruff", "check", ".")',
    '',
    '',
    '@nox.session',
    'def tests(session):',
    `    session.install("pytest", "iniconfig==${LOCKED_INICONFIG}")`,
    '    session.run("python", "-m", "pytest", "-q", "tests")',
    '',
  ].join('\n'),
});

test(
  'noxfile.py only: setup runs the tests session installs with nox; offline `nox -R` names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands, reasons } = await detectCommands(wt);
    assert.equal(commands.test, 'nox -R -s tests', reasons.join('\n'));
    const report = await env.prepare(wt);
    assert.match(report.detected.join('\n'), /^nox: nox --install-only -s tests \(noxfile\.py session "tests"/m);
    assert.ok(
      report.steps.some((s) => s.command.includes(`nox==${NOX_VERSION}`)),
      JSON.stringify(report.steps),
    );
    assert.deepEqual(report.warnings, []);

    await assertPassesInSandbox(
      wt,
      INICONFIG_VERSION.replace(/^python/, '.nox/tests/bin/python'),
      new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'),
    );
    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);
  },
);
