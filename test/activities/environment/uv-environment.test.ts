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
import { runInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import {
  assertLockedOffline,
  detectAndPrepare,
  lockedPythonProject,
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const project = lockedPythonProject('uv');
const env = useEnvironmentProject(project.files, { lock: (repo) => project.lock(repo) });

test(
  'uv.lock: uv fetched, the lock synced into the venv; make test (uv run pytest) offline names the failing test',
  { skip },
  async () => {
    const { wt, report } = await detectAndPrepare(env, 'make -k test', /python: uv\.lock: uv \S+ syncs the venv/);
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

    const direct = await runInSandbox(wt, 'uv run --frozen --offline pytest -q');
    assert.equal(direct.exitCode, 1, direct.output);
    assert.match(direct.output, /1 failed, 1 passed/);

    await assertLockedOffline(wt, 'make -k test');

    const warm = await env.prepareWarm();
    assert.deepEqual(
      warm.steps.map((s) => s.cacheHit),
      [true, true],
    );
  },
);
