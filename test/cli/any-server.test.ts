/**
 * Any Temporal server works out of the box: against a real `temporal server start-dev`
 * started WITHOUT our search attributes (like a user's own server), `start-run`
 * registers them, says so in one line, and the run completes; a visibility query on
 * them then finds the run. Before the check, the start failed with a bare
 * `error: Failed to start Workflow`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { repoIdentity } from '../../src/host/repo-identity.js';
import { REQUIRED_SEARCH_ATTRIBUTES } from '../../src/host/temporal/search-attributes-check.js';
import { bareTestEnv, serverAddress } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { describeResult, runCli } from './cli-process.js';

let env: TestWorkflowEnvironment;
let model: ModelServer;
let repo: string | undefined;
const session = JSON.parse(readFileSync(join(PROJECT_ROOT, 'demo', 'session.json'), 'utf8')) as SessionScript;

before(async () => {
  env = await bareTestEnv();
  model = await createModelServer({ session });
});

after(async () => {
  await model?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
  await env?.teardown();
});

async function customAttributeNames(): Promise<string[]> {
  const { customAttributes } = await env.connection.operatorService.listSearchAttributes({ namespace: 'default' });
  return Object.keys(customAttributes ?? {});
}

test(
  'start-run on a server without the search attributes registers them and the run completes',
  { timeout: 300_000 },
  async () => {
    const before = await customAttributeNames();
    assert.ok(!before.includes('RepoId'), `the bare server has no RepoId (has ${before.join(', ')})`);
    repo = (await createSampleRepo()).repoPath;
    const result = await runCli(['start-run', '--issue', '1', '--repo', repo, '--deliver', 'branch', '--json'], {
      env: {
        TEMPORAL_ADDRESS: serverAddress(env),
        TEMPORAL_TASK_QUEUE: `any-server-${randomUUID()}`,
        ANTHROPIC_BASE_URL: model.url,
        LOG_LEVEL: 'ERROR',
      },
      timeoutMs: 240_000,
    });
    assert.equal(result.code, 0, describeResult(result));
    const registered = result.stderr.split('\n').filter((l) => l.startsWith('registered search attributes '));
    assert.equal(registered.length, 1, `one line says what was registered:\n${describeResult(result)}`);
    assert.match(registered[0]!, /RepoId/);
    const after = await customAttributeNames();
    for (const attr of REQUIRED_SEARCH_ATTRIBUTES) assert.ok(after.includes(attr.name), `${attr.name} registered`);
    assert.equal(JSON.parse(result.stdout.trim().split('\n').at(-1)!).outcome, 'success', result.stdout);

    // The attributes work: the run is found by them.
    const repoId = (await repoIdentity(repo)).id;
    const query = `RepoId = ${JSON.stringify(repoId)} AND IssueNumber = 1`;
    const found = await until(
      `the run to be listed by ${query}`,
      async () => {
        let n = 0;
        for await (const _ of env.client.workflow.list({ query })) n++;
        return n === 0 ? undefined : n;
      },
      10_000,
      250,
    );
    assert.equal(found, 1, `the run is listed by ${query}`);
  },
);
