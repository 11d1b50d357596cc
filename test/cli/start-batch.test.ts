/**
 * `start-batch` as a process: usage errors exit 2 with one line naming the flag, a bad
 * definition exits 2 before anything connects, `--help` documents every flag, and a
 * real batch (in-process worker, offline model server) prints the table and exits 1
 * when one issue of the list does not exist, 0 when all succeed.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { writeLocalIssue } from '../../src/activities/issues/local-issue-store.js';
import { repoIdentity } from '../../src/host/repo-identity.js';
import type { BatchResult } from '../../src/contracts/batch.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { assertCleanFailure, DEAD_ADDRESS, describeResult, runCli } from './cli-process.js';

after(teardownEnv);

const dead = { TEMPORAL_ADDRESS: DEAD_ADDRESS };
const cli = (...args: string[]) => runCli(['start-batch', ...args], { env: dead, timeoutMs: 60_000 });

describe('start-batch usage errors exit 2 naming the flag', { concurrency: 6 }, () => {
  const cases: Array<[string, string[], Array<string | RegExp>]> = [
    ['no selection', [], ['--label', '--issue-list']],
    ['--concurrency 0', ['--label', 'ready', '--concurrency', '0'], ['--concurrency', '0']],
    ['--concurrency abc', ['--label', 'ready', '--concurrency', 'abc'], ['--concurrency', 'abc']],
    ['--concurrency 2.5', ['--label', 'ready', '--concurrency', '2.5'], ['--concurrency']],
    ['--concurrency 1000', ['--label', 'ready', '--concurrency', '1000'], ['--concurrency', '100']],
    ['--issue-list 1,x,3', ['--issue-list', '1,x,3'], ['--issue-list', '"x"']],
    ['--issue-list 1,,3', ['--issue-list', '1,,3'], ['--issue-list']],
    ['--issue-list 0', ['--issue-list', '0'], ['--issue-list']],
    ['--issues carrier-pigeon', ['--label', 'ready', '--issues', 'carrier-pigeon'], ['--issues', 'carrier-pigeon']],
    ['--label with a newline', ['--label', 'a\nb'], ['--label']],
    ['--label without a value', ['--label'], ['--label']],
    ['an unknown flag', ['--label', 'ready', '--bogus'], ['--bogus']],
    ['a stray positional', ['--label', 'ready', 'extra'], ['extra']],
  ];
  for (const [name, args, mentions] of cases) {
    it(name, async () => {
      assertCleanFailure(await cli(...args), { code: 2, mentions });
    });
  }

  it('a bad definition exits 2 before anything connects or starts', async () => {
    const { repoPath } = await createSampleRepo();
    // TEMPORAL_ADDRESS is dead: reaching it would fail differently (exit 1, naming the address).
    assertCleanFailure(await cli('--label', 'ready', '--repo', repoPath, '--agent', '/nonexistent/agent-dir'), {
      code: 2,
      mentions: ['/nonexistent/agent-dir'],
    });
  });

  it('a missing repository fails naming --repo', async () => {
    assertCleanFailure(await cli('--label', 'ready', '--repo', '/nonexistent/repo'), {
      code: 1,
      mentions: ['/nonexistent/repo'],
    });
  });
});

describe('start-batch --help', () => {
  it('documents every flag and the offline model server', async () => {
    const result = await cli('--help');
    assert.equal(result.code, 0, describeResult(result));
    for (const flag of [
      '--label',
      '--issue-list',
      '--concurrency',
      '--agent',
      '--repo',
      '--issues',
      '--follow',
      '--json',
      '--detach',
      '--help',
    ]) {
      assert.ok(result.stdout.includes(flag), `--help mentions ${flag}:\n${result.stdout}`);
    }
    assert.match(result.stdout, /npm run model-server -- --session demo\/session\.json/);
    assert.match(result.stdout, /ANTHROPIC_BASE_URL/);
  });
});

describe('start-batch end to end', () => {
  it(
    'serves the batch in-process, follows progress, prints the table; a missing issue makes it exit 1',
    { timeout: 300_000 },
    async () => {
      const env = await testEnv();
      const { repoPath } = await createSampleRepo();
      await writeLocalIssue(repoPath, {
        number: 2,
        title: 'sum() is wrong again',
        body: 'sum(2, 3) should be 5.',
        labels: ['ready'],
      });
      const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
      try {
        const run = (args: string[]) =>
          runCli(['start-batch', ...args], {
            env: {
              TEMPORAL_ADDRESS: serverAddress(env),
              TEMPORAL_TASK_QUEUE: `cli-batch-${Date.now()}`,
              ANTHROPIC_BASE_URL: model.url,
              LOG_LEVEL: 'ERROR',
            },
            timeoutMs: 240_000,
          });
        const text = await run(['--issue-list', '1,2,99', '--concurrency', '2', '--repo', repoPath, '--follow']);
        assert.equal(text.code, 1, describeResult(text));
        assert.match(text.stderr, /serving the batch in this process/);
        assert.match(text.stdout, /#1 +succeeded/);
        assert.match(text.stdout, /#2 +succeeded/);
        assert.match(text.stdout, /#99 +failed .*not found/i);
        assert.match(text.stdout, /issue +outcome +steps +tokens +cost +PR +reason/);
        assert.match(text.stdout, /batch partial: 2 succeeded/);
        assert.match(text.stdout, /#1 running/, 'live progress was printed');
        // Children are keyed by repository, as start-run's runs: status finds them from --repo and --issue.
        const { id } = await repoIdentity(repoPath);
        const child = await env.client.workflow.getHandle(`${id}/issue-agent/issue-1`).describe();
        assert.equal(child.status.name, 'COMPLETED');
        assert.equal((child.searchAttributes as Record<string, unknown[]>)['RepoId']?.[0], id);

        // Issues 1 and 2 are closed now: a label batch finds nothing left and succeeds vacuously.
        const json = await run(['--label', 'ready', '--repo', repoPath, '--json']);
        assert.equal(json.code, 0, describeResult(json));
        const result = JSON.parse(json.stdout) as BatchResult;
        assert.equal(result.status, 'completed');
        assert.equal(result.results.length, 0);
      } finally {
        await model.close();
      }
    },
  );
});
