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
import { runInSandbox, useEnvironmentProject } from './environment-fixtures.js';
import {
  assertLockedOffline,
  detectAndPrepare,
  lockedPythonProject,
  skipWithoutPypi as skip,
} from './python-locked-project.js';

const project = lockedPythonProject('poetry');
const env = useEnvironmentProject(project.files, { lock: (repo) => project.lock(repo) });

test(
  'poetry.lock: Poetry fetched, the lock installed into the venv; pytest offline names the failing test',
  { skip },
  async () => {
    const { wt, report } = await detectAndPrepare(
      env,
      'make -k test',
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

    const direct = await runInSandbox(wt, 'pytest -q');
    assert.equal(direct.exitCode, 1, direct.output);
    assert.match(direct.output, /1 failed, 1 passed/);
    await assertLockedOffline(wt, 'make -k test');

    const warm = await env.prepareWarm();
    assert.deepEqual(
      warm.steps.map((s) => s.cacheHit),
      [true, false, true],
    );
  },
);
