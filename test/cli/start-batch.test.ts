/**
 * `start-batch` as a process: usage errors exit 2 with one line naming the flag, a bad
 * definition exits 2 before anything connects, `--help` documents every flag, and a
 * real batch (in-process worker, offline model server) prints the table and exits 1
 * when one issue of the list does not exist, 0 when all succeed. What it prints of the runs
 * (a model's hostile abort reason) reaches the terminal as visible escapes, never raw.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { writeLocalIssue } from '../../src/activities/issues/local-issue-store.js';
import { repoIdentity } from '../../src/host/repo-identity.js';
import type { BatchResult } from '../../src/contracts/batch.js';
import { resultTable } from '../../src/cli/commands/start-batch.js';
import { assertTerminalSafe, HOSTILE } from '../helpers/hostile-text.js';
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
      code: 2,
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

describe('start-batch output', () => {
  it('the result table shows a hostile reason and PR link as visible escapes, never raw', () => {
    const usage = { steps: 1, iterations: 1, tokens: 10, costUsd: 0, attached: false };
    const table = resultTable({
      workflowId: 'b',
      status: 'partial',
      counts: { total: 1, queued: 0, running: 0, succeeded: 0, partial: 0, failed: 1, cancelled: 0, skipped: 0 },
      maxConcurrent: 1,
      generation: 0,
      results: [
        {
          issue: 7,
          title: HOSTILE,
          workflowId: 'w7',
          outcome: 'failed',
          prUrl: `u${HOSTILE}`,
          reason: HOSTILE,
          ...usage,
        },
      ],
      totalTokens: 10,
      totalCostUsd: 0,
    } as BatchResult);
    assertTerminalSafe(table, 'the batch table');
    assert.match(table, /#7 +failed .*Done \\x1b\]52;c;cHduZWQ=\\x07/);
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
      // Issue 3's model endpoint rejects the request with a hostile message: its run fails with
      // that message in its reason, which the batch prints (progress line and table).
      await writeLocalIssue(repoPath, {
        number: 3,
        title: `HOSTILE-3 ${HOSTILE}`,
        body: 'HOSTILE-3: the model endpoint answers with terminal escapes.',
        labels: [],
      });
      const demo = JSON.parse(readFileSync(join(DEMO_DIR, 'session.json'), 'utf8')) as SessionScript;
      const rejected: SessionRule = {
        id: 'hostile-rejection',
        when: { promptContains: ['Step initial.understand', 'HOSTILE-3'] },
        respond: { error: { status: 400, type: 'invalid_request_error', message: `gave up: ${HOSTILE}` } },
      };
      const model = await createModelServer({ session: { ...demo, rules: [rejected, ...demo.rules] } });
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
        const text = await run(['--issue-list', '1,2,3,99', '--concurrency', '2', '--repo', repoPath, '--follow']);
        assert.equal(text.code, 1, describeResult(text));
        assertTerminalSafe(text.stdout, 'start-batch stdout');
        assertTerminalSafe(text.stderr, 'start-batch stderr');
        assert.match(text.stdout, /#3 +\w+ .*gave up: Done \\x1b\]52;c;/, describeResult(text));
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
