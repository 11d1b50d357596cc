/**
 * A worker process SIGKILLed inside the boundary merge of a real run (`--deliver
 * merge`): its git stops at the fast-forward of the user's main checkout. The base
 * branch is untouched (no MERGE_HEAD, nothing staged, main checked out and clean);
 * a new worker retries the boundary activity and the run succeeds with main merged once.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { pausingGit } from '../helpers/pausing-git.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { startWorkerProcess, waitFor } from '../helpers/worker-process.js';

after(teardownEnv);

const git = (repo: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

test(
  'SIGKILL inside the boundary merge: main untouched, then the retry delivers once',
  { timeout: 240_000 },
  async () => {
    const env = await testEnv();
    const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
    const { repoPath, issue } = await createSampleRepo();
    const mainBefore = git(repoPath, 'rev-parse', 'main');
    const fake = await pausingGit('--ff-only', 'before');
    const taskQueue = `delivery-crash-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: serverAddress(env),
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_BASE_URL: model.url,
      LOG_LEVEL: 'ERROR',
    };
    let first: ChildProcess | undefined = startWorkerProcess({
      ...workerEnv,
      PATH: `${fake.dir}:${process.env['PATH'] ?? ''}`,
    });
    let second: ChildProcess | undefined;
    try {
      const handle = await env.client.workflow.start(runAgentWorkflow, {
        taskQueue,
        workflowId: `delivery-crash-${Date.now()}`,
        args: [
          {
            issue,
            agentDir: PROJECT_ROOT,
            repoPath,
            issueSource: 'local',
            delivery: 'merge',
            artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
            tuning: { heartbeatTimeoutMs: 3000 },
          },
        ],
      });
      await waitFor(() => existsSync(fake.reached), 150_000, 'the boundary merge to reach the fast-forward');
      first.kill('SIGKILL');
      await new Promise((resolve) => first!.once('exit', resolve));
      first = undefined;

      assert.equal(git(repoPath, 'rev-parse', 'main'), mainBefore, 'main untouched');
      assert.equal(existsSync(join(repoPath, '.git', 'MERGE_HEAD')), false);
      assert.equal(git(repoPath, 'status', '--porcelain', '--untracked-files=no'), '');
      assert.equal(git(repoPath, 'branch', '--show-current'), 'main');

      second = startWorkerProcess(workerEnv);
      const result = await handle.result();
      assert.equal(result.outcome, 'success', result.reason);
      assert.equal(result.boundary?.status, 'success');
      assert.equal(git(repoPath, 'rev-parse', 'main^1'), mainBefore, 'merged once, on the old main');
      assert.match(git(repoPath, 'log', '-1', '--format=%s', 'main'), /Merge branch 'agent\/issue-1'/);
      assert.match(readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8'), /a \+ b/);
      assert.equal(git(repoPath, 'status', '--porcelain', '--untracked-files=no'), '');
      assert.match(readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8'), /state: closed/);
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGKILL');
      await model.close();
      await rm(fake.dir, { recursive: true, force: true });
    }
  },
);
