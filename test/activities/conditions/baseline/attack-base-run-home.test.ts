/**
 * When no preflight measured the base (a run moved to another host, a command the
 * preflight could not measure), the judgement runs the test command on a detached
 * worktree of the base and caches which tests fail there: those failures are excused.
 * That worktree is made inside the agent's HOME, and node, pytest and npm look for
 * `package.json`, `conftest.py`, `pytest.ini` and `node_modules` in every parent
 * directory; the base run's own sandbox shows only the detached worktree there (the
 * HOME around it is hidden with the state dir). The agent plants a `package.json` of
 * `"type": "module"` in its HOME, which would turn the base's CommonJS test files into
 * failing ES modules: the base still passes.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { baselineFailures } from '../../../../src/activities/conditions/baseline/baseline-run.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import { agentHomePath } from '../../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';
import { runInSandbox } from '../../../helpers/run-in-sandbox.js';

const stateDir = await mkdtemp(path.join(os.tmpdir(), 'base-run-home-state-'));
process.env['ISSUE_AGENT_STATE_DIR'] = stateDir;
after(() => rm(stateDir, { recursive: true, force: true }));

test('the base is measured where nothing the agent wrote is a parent directory', async () => {
  const repo = await makeTempGitRepo({
    files: {
      'math.test.js':
        "const assert = require('node:assert');\nconst { test } = require('node:test');\ntest('adds', () => assert.equal(1 + 1, 2));\n",
    },
  });
  try {
    const runner = createSpawnerCommandRunner();
    // From the agent's bash tool (a validator's command has a HOME of its own).
    const planted = await runInSandbox(repo.dir, `printf '{"type":"module"}' > "$HOME/package.json" && echo planted`);
    assert.match(planted.all, /planted/);
    assert.equal(existsSync(path.join(agentHomePath(repo.dir), 'package.json')), true);
    const baseline = await baselineFailures(runner, {
      worktreePath: repo.dir,
      commit: await repo.git('rev-parse', 'HEAD'),
      command: 'node --test',
      timeoutMs: 60_000,
    });
    assert.equal(baseline?.exitCode, 0, JSON.stringify(baseline));
    assert.deepEqual(baseline?.failedTests, []);
  } finally {
    await repo.cleanup();
  }
});
