/**
 * What setup installed in the worktree (its node_modules, the root's and workspace
 * packages') is read-only to the agent's commands and the validators after them: a
 * stranger's scripted agent replaced `node_modules/.bin/jest` (and vitest's) with a script
 * printing PASS, and the closing's `yarn test` ran the fake and closed the issue with the
 * bug still there (git-ignored, so no check of the diff saw it). The caches test tools
 * write there stay writable; an agent-written setup, which has the network to install,
 * may still write them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedDependencies } from '../../../src/activities/environment/installed-dependencies.js';
import { removeAgentSandbox } from '../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { runInSandbox } from '../../helpers/run-in-sandbox.js';
import { writeInstalledReport } from '../../helpers/installed-report.js';

const run = async (dir: string, command: string, network = false): Promise<number> =>
  (await runInSandbox(dir, command, network ? { network: true } : {})).exitCode;

test("the agent cannot replace an installed test runner; test tools' caches stay writable", async () => {
  const repo = await makeTempGitRepo({
    files: {
      '.gitignore': 'node_modules/\n',
      'node_modules/.bin/jest': '#!/bin/sh\necho real jest\n',
      'packages/a/node_modules/.bin/vitest': '#!/bin/sh\necho real vitest\n',
      'packages/a/src/node_modules/deep/x.js': 'deeper than a package: found too\n',
    },
  });
  try {
    const installed = await installedDependencies(repo.dir);
    assert.deepEqual(installed.readOnly, [
      join(repo.dir, 'node_modules'),
      join(repo.dir, 'packages/a/node_modules'),
      join(repo.dir, 'packages/a/src/node_modules'),
    ]);
    assert.ok(installed.writable.includes(join(repo.dir, 'node_modules/.cache')));
    await writeInstalledReport(repo.dir, installed);
    const jest = join(repo.dir, 'node_modules/.bin/jest');
    assert.notEqual(await run(repo.dir, `printf '#!/bin/sh\\necho PASS\\n' > node_modules/.bin/jest`), 0);
    assert.notEqual(await run(repo.dir, 'rm -f node_modules/.bin/jest'), 0);
    assert.notEqual(await run(repo.dir, 'echo fake > packages/a/node_modules/.bin/vitest'), 0);
    assert.equal(readFileSync(jest, 'utf8'), '#!/bin/sh\necho real jest\n');
    assert.equal(
      await run(repo.dir, 'echo cached > node_modules/.cache/babel && echo r > node_modules/.vite/results'),
      0,
    );
    assert.equal(await run(repo.dir, 'echo change > src.js'), 0, 'the rest of the worktree stays writable');
    // An agent-written setup runs with the network to install: it may write them.
    assert.equal(await run(repo.dir, 'echo installed > node_modules/new.js', true), 0);
  } finally {
    await removeAgentSandbox(repo.dir);
    await repo.cleanup();
  }
});
