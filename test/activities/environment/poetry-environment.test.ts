/**
 * A Poetry project (poetry.lock made by Poetry itself in the test, iniconfig locked at
 * 2.0.0 while pyproject allows any version, pytest in the `dev` group): setup fetches
 * Poetry from PyPI into the tools dir (a venv of its own) and `poetry install`s the
 * locked versions into the run's venv; in the sandbox, offline, `pytest` fails on the
 * planted bug, and the detected `make test` (a Makefile running `poetry run pytest`, poetry
 * on PATH alone) has it named by the preflight; the venv holds the locked iniconfig.
 *
 * The index is named as a source of the project's (`[[tool.poetry.source]]`, the simple
 * API): Poetry reads PyPI through its JSON API, which a mirror may not serve.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execa } from 'execa';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { PYTHON_TOOL_VERSIONS } from '../../../src/activities/environment/python-tool.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertPassesInSandbox, runInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { mavenPreflight as preflight } from './maven-project.js';
import {
  CALC_SOURCES,
  INICONFIG_VERSION,
  LOCKED_INICONFIG,
  lockAtOlderVersion,
  lockTool,
  PYPI_SIMPLE,
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const pyproject = (iniconfig: string): string =>
  [
    '[tool.poetry]',
    'name = "calc"',
    'version = "0.1.0"',
    'description = ""',
    'authors = ["Demo <demo@example.com>"]',
    'packages = [{ include = "calc", from = "src" }]',
    '',
    '[tool.poetry.dependencies]',
    'python = ">=3.9"',
    `iniconfig = "${iniconfig}"`,
    '',
    '[tool.poetry.group.dev.dependencies]',
    'pytest = "*"',
    '',
    '[[tool.poetry.source]]',
    'name = "index"',
    `url = "${PYPI_SIMPLE}/"`,
    'priority = "primary"',
    '',
    '[build-system]',
    'requires = ["poetry-core>=1.0.0"]',
    'build-backend = "poetry.core.masonry.api"',
    '',
  ].join('\n');

const env = useEnvironmentProject(
  { ...CALC_SOURCES, 'pyproject.toml': pyproject(LOCKED_INICONFIG), Makefile: 'test:\n\tpoetry run pytest\n' },
  {
    lock: async (repo) => {
      if (skip !== false) return;
      const poetry = await lockTool('poetry', PYTHON_TOOL_VERSIONS.poetry);
      await lockAtOlderVersion(repo, pyproject('*'), (lockEnv) =>
        execa(poetry, ['lock', '--no-interaction'], { cwd: repo.dir, env: lockEnv }),
      );
    },
  },
);

test(
  'poetry.lock: Poetry fetched, the lock installed into the venv; pytest offline names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    assert.equal(commands.test, 'make -k test');
    const report = await env.prepare(wt);
    assert.match(
      report.detected.join('\n'),
      /python: poetry\.lock and pyproject \[tool\.poetry\]: Poetry installs .*groups dev/,
    );
    assert.deepEqual(
      report.steps.map((s) => [['poetry==', 'poetry install', '-m venv'].find((c) => s.command.includes(c)), s.status]),
      [
        ['poetry==', 'ran'],
        ['-m venv', 'ran'],
        ['poetry install', 'ran'],
      ],
    );
    assert.match(report.steps[2]?.command ?? '', /install --no-interaction --with dev$/);
    assert.deepEqual(report.warnings, [], 'the lock is not rewritten, nothing is left in the worktree');

    await assertPassesInSandbox(wt, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
    const direct = await runInSandbox(wt, 'pytest -q');
    assert.equal(direct.exitCode, 1, direct.output);
    assert.match(direct.output, /1 failed, 1 passed/);
    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);

    const warm = await env.prepareWarm();
    assert.deepEqual(
      warm.steps.map((s) => s.cacheHit),
      [true, false, true],
    );
  },
);
