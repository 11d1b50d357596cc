/**
 * A PDM project (pdm.lock made by PDM itself in the test, iniconfig locked at 2.0.0 while
 * pyproject allows any version, pytest in a `[tool.pdm.dev-dependencies]` group): setup
 * fetches PDM from PyPI into the tools dir (a venv of its own) and `pdm sync`s the locked
 * versions into the run's venv; in the sandbox, offline, the detected `pytest` fails on
 * the planted bug and the preflight names it; the venv holds the locked iniconfig, not
 * the newest a pip resolution would take.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { PYTHON_TOOL_VERSIONS } from '../../../src/activities/environment/python-tool.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { assertPassesInSandbox, useEnvironmentProject } from './environment-fixtures.js';
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
    '[project]',
    'name = "calc"',
    'version = "0.1.0"',
    'requires-python = ">=3.9"',
    `dependencies = ["${iniconfig}"]`,
    '',
    '[tool.pdm]',
    'distribution = true',
    '',
    '[tool.pdm.dev-dependencies]',
    'test = ["pytest"]',
    '',
    '[build-system]',
    'requires = ["pdm-backend"]',
    'build-backend = "pdm.backend"',
    '',
  ].join('\n');

const env = useEnvironmentProject(
  { ...CALC_SOURCES, 'pyproject.toml': pyproject(`iniconfig==${LOCKED_INICONFIG}`) },
  {
    lock: async (repo) => {
      if (skip !== false) return;
      const pdm = await lockTool('pdm', PYTHON_TOOL_VERSIONS.pdm);
      await lockAtOlderVersion(repo, pyproject('iniconfig'), async (lockEnv) => {
        await execa(pdm, ['lock', '--update-reuse', '--quiet'], {
          cwd: repo.dir,
          env: { ...lockEnv, PDM_PYPI_URL: PYPI_SIMPLE },
        });
        // Locking saves the interpreter it chose and may make a .venv: not the project's.
        for (const made of ['.pdm-python', '.venv'])
          await rm(path.join(repo.dir, made), { recursive: true, force: true });
      });
    },
  },
);

test(
  'pdm.lock: PDM fetched, the lock synced into the venv; pytest offline names the failing test',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    assert.equal(commands.test, 'pytest');
    const report = await env.prepare(wt);
    assert.match(report.detected.join('\n'), /python: pdm\.lock and pyproject \[tool\.pdm\]: PDM \S+ syncs the locked/);
    assert.deepEqual(
      report.steps.map((s) => [s.command.match(/pdm==|-m venv --without-pip|pdm sync/)?.[0], s.status]),
      [
        ['pdm==', 'ran'],
        ['-m venv --without-pip', 'ran'],
        ['pdm sync', 'ran'],
      ],
    );
    assert.deepEqual(report.warnings, [], 'nothing is left in the worktree that git shows');

    await assertPassesInSandbox(wt, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
    const check = (await preflight(wt, commands.test ?? '')).checks[0];
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['tests/test_calc.py::test_subtracts']);

    const warm = await env.prepareWarm();
    assert.equal(warm.steps.find((s) => /pdm sync/.test(s.command))?.cacheHit, true);
  },
);
