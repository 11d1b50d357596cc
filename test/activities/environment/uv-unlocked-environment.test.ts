/**
 * A uv project without a lock (pyproject `[tool.uv]` only): setup resolves with plain
 * `uv sync` into the run's venv and removes the `uv.lock` uv writes, so nothing is left
 * in the worktree for the agent's change; in the sandbox, offline and with no lock,
 * `uv run pytest` runs in that venv and fails on the planted bug.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import { CALC_SOURCES, skipWithoutPypi as skip } from './python-locked-project.js';

const env = useEnvironmentProject({
  ...CALC_SOURCES,
  'pyproject.toml': [
    '[project]',
    'name = "calc"',
    'version = "0.1.0"',
    'requires-python = ">=3.9"',
    'dependencies = ["iniconfig"]',
    '',
    '[dependency-groups]',
    'dev = ["pytest"]',
    '',
    '[tool.uv]',
    'default-groups = ["dev"]',
    '',
    '[build-system]',
    'requires = ["hatchling"]',
    'build-backend = "hatchling.build"',
    '',
  ].join('\n'),
});

test(
  '[tool.uv] without uv.lock: resolved by uv sync, the lock it wrote removed; uv run pytest offline',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const report = await env.prepare(wt);
    assert.match(report.detected.join('\n'), /python: pyproject \[tool\.uv\], no lockfile/);
    assert.equal(existsSync(path.join(wt, 'uv.lock')), false, 'the lock uv wrote is removed');
    assert.deepEqual(report.warnings, []);
    const run = await runInSandbox(wt, 'uv run pytest -q');
    assert.equal(run.exitCode, 1, run.output);
    assert.match(run.output, /1 failed, 1 passed/);
  },
);
