/**
 * Python projects managed by Hatch, PDM and tox, as a new user meets them: the projects of
 * the environment tests (python-locked-project.ts: `calc.sub` adds, iniconfig pinned at
 * 2.0.0, pytest only where the manager keeps its test tools; PDM's lock made by PDM
 * itself), each on a fresh clone with nothing installed.
 *   - a planted bug and a scripted fix: the environment phase installs what the manager
 *     names without running the manager's own envs (Hatch, tox) or by syncing the lock
 *     (PDM), the detected test command runs offline in the sandbox, the preflight keeps
 *     the red test as the baseline by its pytest node id, and the delivered diff is the fix;
 *   - a second run of the same repository takes every install from the cache.
 * The three share one harness state dir (each repository keeps its own caches under it):
 * each case's second run is what shows its own cache reused. The three cases run at the
 * same time (their two runs in order): each is a different clone, workflow and task queue,
 * and most of a run is waiting on a registry, a child process or the server.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import {
  CALC_BUG,
  FAILING_TEST,
  HATCH_PROJECT,
  lockedPythonProject,
  skipWithoutPypi as skip,
  TOX_PROJECT,
} from '../activities/environment/python-locked-project.js';
import { makeOrigin, removeStateDir, runOnFreshClone, sharedStateDir } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

interface ManagerCase {
  readonly name: string;
  readonly origin: () => Promise<TempGitRepo>;
  /** Where `calc.sub` is. */
  readonly path: string;
  readonly testCommand: string;
  /** The `detected:` line that says the manager was recognised. */
  readonly detected: RegExp;
}

const pdm = lockedPythonProject('pdm');

const CASES: readonly ManagerCase[] = [
  {
    name: 'Hatch',
    origin: () => makeOrigin(HATCH_PROJECT),
    path: 'src/calc/__init__.py',
    testCommand: 'pytest -q tests',
    detected: /\[tool\.hatch\.envs\.test\] dependencies installed without Hatch: pytest, iniconfig==2\.0\.0/,
  },
  {
    name: 'PDM',
    origin: async () => {
      const workDir = await sharedStateDir();
      return makeOrigin(pdm.files, (repo) => pdm.lock(repo, workDir));
    },
    path: 'src/calc/__init__.py',
    testCommand: 'pytest',
    detected: /pdm\.lock and pyproject \[tool\.pdm\]: PDM \S+ syncs the locked/,
  },
  {
    name: 'tox',
    origin: () => makeOrigin(TOX_PROJECT),
    path: 'calc.py',
    testCommand: 'python -m pytest -q tests',
    detected: /tox\.ini \[testenv\] deps installed without tox: pytest, -r ci\/test-deps\.txt/,
  },
];

const ISSUE = {
  title: 'calc.sub adds instead of subtracting',
  body: `sub(3, 2) returns 5; it should return 1 (${FAILING_TEST} fails).`,
};

const origins: TempGitRepo[] = [];

after(async () => {
  for (const origin of origins) await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

describe('three managers at once', { concurrency: CASES.length }, () => {
  for (const c of CASES)
    describe(c.name, { concurrency: 1 }, () => {
      let origin: TempGitRepo | undefined;
      const session = fixSession({
        name: `calc (${c.name})`,
        fix: { path: c.path, ...CALC_BUG },
        testCommand: c.testCommand,
      });

      test(
        `${c.name}: a fresh clone is set up without the manager's envs, the red test is the baseline, the fix delivered`,
        {
          skip,
        },
        async () => {
          origin = await c.origin();
          origins.push(origin);
          const run = await runOnFreshClone({ origin, issue: ISSUE, session });
          assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
          await assertSucceeded(run);
          assert.deepEqual(await run.changedOnBranch(), [c.path]);
          const environment = (run.result?.environment ?? []).join('\n');
          assert.match(environment, c.detected);
          assert.ok(environment.includes(`\`${c.testCommand}\` fails on the base`), 'the detected test command ran');
          assert.match(environment, /preflight: tests: baseline .*tests\/test_calc\.py::test_subtracts/);
          assert.match(run.result?.reason ?? '', /fixed since base: tests\/test_calc\.py::test_subtracts/);
        },
      );

      test(`${c.name}: a second run of the same repository takes every install from the cache`, { skip }, async () => {
        assert.ok(origin, 'the first run made the origin');
        const run = await runOnFreshClone({ origin, issue: ISSUE, session });
        await assertSucceeded(run);
        assert.match((run.result?.environment ?? []).join('\n'), /setup: every install came from the cache/);
      });
    });
});
