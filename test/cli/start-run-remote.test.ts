/**
 * `start-run --repo file://…` as a user runs it, as a process against the test server with
 * the offline model server and no worker (the run is served in-process): the client clones
 * the remote to read the issue, the run works its own clone and pushes the branch; no
 * checkout exists anywhere but in the state dir. The run's identity is the URL's: `status`
 * finds the run by the URL, spelled differently.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { remoteRepoId } from '../../src/activities/workspace/remote/repo-cache-layout.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { createRemoteSampleRepo, remoteRefs } from '../workflows/fleet/remote-fixture.js';
import { describeResult, runCli } from './cli-process.js';

let env: TestWorkflowEnvironment;
let model: ModelServer;
const session = JSON.parse(readFileSync(join(PROJECT_ROOT, 'demo', 'session.json'), 'utf8')) as SessionScript;

before(async () => {
  env = await testEnv();
  model = await createModelServer({ session });
});

after(async () => {
  await model?.close();
  await teardownEnv();
});

test(
  'start-run --repo file://… clones, works and pushes the branch; status finds it by URL',
  { timeout: 300_000 },
  async () => {
    const { url, barePath } = await createRemoteSampleRepo();
    const stateDir = await mkdtemp(join(tmpdir(), 'cli-remote-state-'));
    const childEnv = {
      TEMPORAL_ADDRESS: serverAddress(env),
      TEMPORAL_TASK_QUEUE: `remote-cli-${randomUUID()}`,
      ANTHROPIC_BASE_URL: model.url,
      ISSUE_AGENT_STATE_DIR: stateDir,
      ISSUE_AGENT_HOST_ID: 'cli-host',
      LOG_LEVEL: 'ERROR',
    };
    const started = await runCli(['start-run', '--issue', '1', '--repo', url, '--deliver', 'branch', '--json'], {
      env: childEnv,
      timeoutMs: 240_000,
    });
    assert.equal(started.code, 0, describeResult(started));
    const result = JSON.parse(started.stdout.trim().split('\n').pop()!) as {
      workflowId: string;
      outcome: string;
      worktreePath?: string;
      boundary?: { effects: { name: string; status: string }[] };
    };
    assert.equal(result.outcome, 'success');
    assert.ok(result.workflowId.startsWith(`${remoteRepoId(url)}/`), result.workflowId);
    assert.ok(result.worktreePath?.startsWith(stateDir), `worked in the state dir: ${result.worktreePath}`);
    assert.equal(result.boundary?.effects.find((e) => e.name === 'push')?.status, 'done');
    const heads = [...(await remoteRefs(barePath, 'refs/heads/')).keys()].sort();
    assert.deepEqual(heads, ['refs/heads/agent/issue-1', 'refs/heads/main']);
    assert.equal((await remoteRefs(barePath, 'refs/issue-agent/')).size, 0);

    // The same repository spelled with a trailing slash: the same run.
    const status = await runCli(['status', '--issue', '1', '--repo', `${url}/`, '--json'], {
      env: childEnv,
      timeoutMs: 60_000,
    });
    assert.equal(status.code, 0, describeResult(status));
    assert.equal((JSON.parse(status.stdout) as { workflowId: string }).workflowId, result.workflowId);
  },
);
