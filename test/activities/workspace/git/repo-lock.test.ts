/**
 * withRepoLock serialises critical sections on one repository, within a process and
 * across processes, and takes over a lock left by a dead process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { withRepoLock } from '../../../../src/activities/workspace/git/repo-lock.js';
import { gitCommonPath } from '../../../../src/activities/workspace/git/repo-queries.js';
import { PROJECT_ROOT } from '../../../../src/host/project-root.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

test('critical sections in one process never overlap', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a' } });
  let inside = 0;
  let maxInside = 0;
  await Promise.all(
    Array.from({ length: 8 }, () =>
      withRepoLock(repo.dir, async () => {
        inside += 1;
        maxInside = Math.max(maxInside, inside);
        await sleep(10);
        inside -= 1;
      }),
    ),
  );
  assert.equal(maxInside, 1);
  await repo.cleanup();
});

test('critical sections in two processes never overlap; a stale lock is taken over', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a' } });
  // A lock left by a process that no longer exists.
  await writeFile(await gitCommonPath(repo.dir, 'issue-agent.lock'), '999999999');
  const script = `
    import { appendFile } from 'node:fs/promises';
    import { withRepoLock } from ${JSON.stringify(join(PROJECT_ROOT, 'src/activities/workspace/git/repo-lock.ts'))};
    for (let i = 0; i < 5; i++) {
      await withRepoLock(process.argv[1], async () => {
        await appendFile(process.argv[2], 'in\\n');
        await new Promise((r) => setTimeout(r, 20));
        await appendFile(process.argv[2], 'out\\n');
      });
    }`;
  const log = join(repo.dir, 'log.txt');
  const run = () =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, repo.dir, log], {
      cwd: PROJECT_ROOT,
    });
  await Promise.all([run(), run()]);
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(log, 'utf8')).trim().split('\n');
  assert.equal(lines.length, 20);
  for (let i = 0; i < lines.length; i += 2)
    assert.deepEqual(lines.slice(i, i + 2), ['in', 'out'], `sections interleaved at line ${i}`);
  await repo.cleanup();
});
