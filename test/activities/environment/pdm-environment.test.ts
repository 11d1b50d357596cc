/**
 * A PDM project (pdm.lock made by PDM itself in the test, iniconfig locked at 2.0.0 while
 * pyproject allows any version, pytest in a `[tool.pdm.dev-dependencies]` group): setup
 * fetches PDM from PyPI into the tools dir (a venv of its own) and `pdm sync`s the locked
 * versions into the run's venv; in the sandbox, offline, the detected `pytest` fails on
 * the planted bug and the preflight names it; the venv holds the locked iniconfig, not
 * the newest a pip resolution would take.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useEnvironmentProject } from './environment-fixtures.js';
import {
  assertLockedOffline,
  detectAndPrepare,
  lockedPythonProject,
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const project = lockedPythonProject('pdm');
const env = useEnvironmentProject(project.files, { lock: (repo) => project.lock(repo) });

test(
  'pdm.lock: PDM fetched, the lock synced into the venv; pytest offline names the failing test',
  { skip },
  async () => {
    const { wt, report } = await detectAndPrepare(
      env,
      'pytest',
      /python: pdm\.lock and pyproject \[tool\.pdm\]: PDM \S+ syncs the locked/,
    );
    assert.deepEqual(
      report.steps.map((s) => [s.command.match(/pdm==|-m venv --without-pip|pdm sync/)?.[0], s.status]),
      [
        ['pdm==', 'ran'],
        ['-m venv --without-pip', 'ran'],
        ['pdm sync', 'ran'],
      ],
    );
    assert.deepEqual(report.warnings, [], 'nothing is left in the worktree that git shows');

    await assertLockedOffline(wt, 'pytest');

    const warm = await env.prepareWarm();
    assert.equal(warm.steps.find((s) => /pdm sync/.test(s.command))?.cacheHit, true);
  },
);
