/**
 * A uv project (uv.lock made by uv itself in the test, iniconfig locked at 2.0.0 while
 * pyproject allows any version, pytest in the `dev` dependency group) whose only test
 * entry is a Makefile running `uv run pytest`, as the example: setup fetches uv
 * from PyPI into the tools dir and syncs the locked versions into the run's venv; in the
 * sandbox, offline, `make test` runs (uv on PATH, told not to sync) and the preflight
 * names the planted failing test; the venv holds the locked iniconfig, not the newest.
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
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const pyproject = (iniconfig: string): string =>
  [
    '[project]',
    'name = "calc"',
    'version = "0.1.0"',
    'requires-python = ">=3.9"',
    `dependencies = ["${iniconfig}"]`,
    '',
    '[dependency-groups]',
    'dev = ["pytest"]',
    '',
    '[build-system]',
    'requires = ["hatchling"]',
    'build-backend = "hatchling.build"',
    '',
  ].join('\n');

const env = useEnvironmentProject(
  {
    ...CALC_SOURCES,
    'pyproject.toml': pyproject(`iniconfig==${LOCKED_INICONFIG}`),
    Makefile: 'test:\n\tuv run pytest\n',
  },
  {
    lock: async (repo) => {
      if (skip !== false) return;
      const uv = await lockTool('uv', PYTHON_TOOL_VERSIONS.uv);
      await lockAtOlderVersion(repo, pyproject('iniconfig'), (lockEnv) =>
        execa(uv, ['lock', '--quiet'], { cwd: repo.dir, env: lockEnv }),
      );
    },
  },
);

test(
  'uv.lock: uv fetched, the lock synced into the venv; make test (uv run pytest) offline names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    assert.equal(commands.test, 'make -k test');
    const report = await env.prepare(wt);
    assert.match(report.detected.join('\n'), /python: uv\.lock: uv \S+ syncs the venv/);
    assert.deepEqual(
      report.steps.map((s) => [s.command.match(/uv(==| sync)/)?.[0], s.status]),
      [
        ['uv==', 'ran'],
        ['uv sync', 'ran'],
      ],
    );
    assert.match(report.steps[1]?.command ?? '', /sync --frozen$/);
    assert.deepEqual(report.warnings, [], 'the lock is not rewritten, nothing is left in the worktree');
    assert.equal(report.sandbox.env['UV_OFFLINE'], '1');

    await assertPassesInSandbox(wt, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
    const direct = await runInSandbox(wt, 'uv run --frozen --offline pytest -q');
    assert.equal(direct.exitCode, 1, direct.output);
    assert.match(direct.output, /1 failed, 1 passed/);

    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);

    const warm = await env.prepareWarm();
    assert.deepEqual(
      warm.steps.map((s) => s.cacheHit),
      [true, true],
    );
  },
);
