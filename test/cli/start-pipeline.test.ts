/**
 * `start-pipeline` as a process: usage errors exit 2 naming the flag, `--help` documents
 * every flag, and end to end on the real dev server with the offline model server and a
 * `.agent/workflow.json` in the upstream format (agents beside it): `--prioritize` applies
 * the prioritizer's labels, then the batch form by label runs one pipeline per issue in
 * priority order to the terminal phase and prints the table (exit 0). A model's hostile
 * priority is printed as visible escapes, never raw.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { writeLocalIssue } from '../../src/activities/issues/local-issue-store.js';
import { repoIdentity } from '../../src/host/repo-identity.js';
import type { PipelineResult } from '../../src/contracts/pipeline-run.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { agentRule, writePipelineAgent } from '../workflows/pipeline/pipeline-agents.js';
import { readIssueFile } from '../workflows/pipeline/pipeline-scenario.js';
import { assertCleanFailure, DEAD_ADDRESS, describeResult, runCli } from './cli-process.js';
import { assertTerminalSafe, HOSTILE } from '../helpers/hostile-text.js';

after(teardownEnv);

const dead = { TEMPORAL_ADDRESS: DEAD_ADDRESS };
const cli = (...args: string[]) => runCli(['start-pipeline', ...args], { env: dead, timeoutMs: 60_000 });

const WORKFLOW = {
  version: '1.0.0',
  phases: {
    consider: { type: 'actionable', priority: 1, agent: 'considerer' },
    detail: { type: 'actionable', priority: 2, agent: 'detailer' },
    implement: { type: 'actionable', priority: 3, agent: 'implementer' },
    done: { type: 'terminal' },
    blocked: { type: 'blocking' },
  },
  labelMapping: {
    'kind:consider': 'consider',
    'kind:detail': 'detail',
    'kind:impl': 'implement',
    done: 'done',
    blocked: 'blocked',
  },
  agents: {
    considerer: {
      role: 'transformer',
      outputPhase: 'done',
      fallbackPhases: { 'handoff-detail': 'detail' },
      fallbackPhase: 'blocked',
    },
    detailer: { role: 'transformer', outputPhase: 'implement', fallbackPhase: 'blocked' },
    implementer: { role: 'transformer', outputPhase: 'done', fallbackPhase: 'blocked', closeOnComplete: true },
  },
  rules: { maxCycles: 5, cycleDelayMs: 0 },
  handoff: { commentTemplates: { considererHandoffDetail: 'Considered: {summary}' } },
  prioritizer: { agent: 'triager', labels: ['P1', 'P2', 'P3'], defaultLabel: 'P3' },
};

describe('start-pipeline usage errors exit 2 naming the flag', { concurrency: 4 }, () => {
  const cases: Array<[string, string[], string[]]> = [
    ['no selection', [], ['--issue', '--label']],
    ['--issue and --prioritize', ['--issue', '1', '--prioritize'], ['--issue', '--prioritize']],
    ['--issue and --label', ['--issue', '1', '--label', 'x'], ['--label']],
    ['--concurrency 1000', ['--label', 'x', '--concurrency', '1000'], ['--concurrency', '100']],
    ['--issues carrier-pigeon', ['--issue', '1', '--issues', 'carrier-pigeon'], ['--issues', 'carrier-pigeon']],
    ['an unknown flag', ['--issue', '1', '--bogus'], ['--bogus']],
  ];
  for (const [name, args, mentions] of cases)
    it(name, async () => {
      assertCleanFailure(await cli(...args), { code: 2, mentions });
    });

  it('a missing workflow.json exits 2 naming it, before anything connects', async () => {
    const { repoPath } = await createSampleRepo();
    assertCleanFailure(await cli('--issue', '1', '--repo', repoPath), {
      code: 2,
      mentions: [join(repoPath, '.agent', 'workflow.json')],
    });
  });
});

describe('start-pipeline --help', () => {
  it('documents every flag', async () => {
    const result = await cli('--help');
    assert.equal(result.code, 0, describeResult(result));
    for (const flag of [
      '--issue',
      '--label',
      '--concurrency',
      '--prioritize',
      '--workflow',
      '--repo',
      '--issues',
      '--follow',
      '--json',
    ])
      assert.ok(result.stdout.includes(flag), `--help mentions ${flag}`);
  });
});

describe('start-pipeline end to end', () => {
  it(
    '--prioritize labels the issues, then --label runs each pipeline in priority order to done',
    { timeout: 300_000 },
    async () => {
      const env = await testEnv();
      const { repoPath } = await createSampleRepo();
      const agentRoot = join(repoPath, '.agent');
      await mkdir(agentRoot, { recursive: true });
      await writeFile(join(agentRoot, 'workflow.json'), JSON.stringify(WORKFLOW, null, 2));
      for (const id of ['considerer', 'detailer', 'implementer']) await writePipelineAgent(agentRoot, id);
      await writePipelineAgent(agentRoot, 'triager', true);
      for (const n of [2, 3])
        await writeLocalIssue(repoPath, {
          number: n,
          title: `feature ${n}`,
          body: `do ${n}`,
          labels: ['kind:consider'],
        });

      const rules: SessionRule[] = [
        {
          id: 'triage',
          when: { promptContains: ['Agent triager works issue 1 in a terse style.', '"number":3'] },
          respond: {
            json: {
              stepId: 'closure.work',
              summary: 'ordered',
              priorities: [
                { issue: 3, priority: 'P1' },
                { issue: 2, priority: `urgent! ${HOSTILE}` },
              ],
              next_action: { action: 'closing' },
            },
          },
        } as SessionRule,
        ...[2, 3].flatMap((n) => [
          agentRule('considerer', n, { verdict: 'handoff-detail', summary: `worth ${n}`, ruleId: `considerer-${n}` }),
          agentRule('detailer', n, { summary: `detailed ${n}`, ruleId: `detailer-${n}` }),
          agentRule('implementer', n, { summary: `done ${n}`, ruleId: `implementer-${n}` }),
        ]),
        agentRule('implementer', 4, { summary: 'fixed', ruleId: 'implementer-4' }),
      ];
      const model = await createModelServer({ session: { name: 'cli-pipeline', rules } });
      try {
        const run = (args: string[]) =>
          runCli(['start-pipeline', '--repo', repoPath, ...args], {
            env: {
              TEMPORAL_ADDRESS: serverAddress(env),
              TEMPORAL_TASK_QUEUE: `cli-pipeline-${Date.now()}`,
              ANTHROPIC_BASE_URL: model.url,
              LOG_LEVEL: 'ERROR',
            },
            timeoutMs: 240_000,
          });
        const prioritized = await run(['--prioritize']);
        assert.equal(prioritized.code, 0, describeResult(prioritized));
        // The model's hostile priority is quoted in the table: as visible escapes, never raw.
        assertTerminalSafe(prioritized.stdout, 'start-pipeline --prioritize stdout');
        assertTerminalSafe(prioritized.stderr, 'start-pipeline --prioritize stderr');
        assert.match(prioritized.stdout, /#3 +P1/);
        assert.match(prioritized.stdout, /#2 +P3 .*not one of P1, P2, P3: default P3/);
        assert.deepEqual((await readIssueFile(repoPath, 3)).labels, ['kind:consider', 'P1']);

        const batch = await run(['--label', 'kind:consider', '--concurrency', '1', '--follow']);
        assert.equal(batch.code, 0, describeResult(batch));
        assertTerminalSafe(batch.stdout, 'start-pipeline stdout');
        assertTerminalSafe(batch.stderr, 'start-pipeline stderr');
        assert.match(
          batch.stderr,
          /2 open issue\(s\) labelled kind:consider in an actionable phase: #3 consider \(P1\), #2 consider \(P3\)/,
        );
        // Live progress (polled every second, so which cycles show depends on speed: a child
        // run can start and end between two polls, so its "running" line is not required).
        assert.match(batch.stderr, /#3 cycle [1-3]\/5 · phase (consider|detail|implement) · /, batch.stderr);
        assert.ok(batch.stderr.indexOf('issue-3') < batch.stderr.indexOf('issue-2'), 'P1 started first');
        assert.match(batch.stdout, /#3 +completed +done +3 +yes +consider → detail\(considerer:handoff-detail\)/);
        assert.match(batch.stdout, /#2 +completed +done +3 +yes/);
        assert.match(batch.stdout, /2 of 2 pipeline\(s\) completed/);
        for (const n of [2, 3]) {
          const issue = await readIssueFile(repoPath, n);
          assert.equal(issue.state, 'closed');
          assert.deepEqual(issue.labels, ['done'], 'terminal: the priority label is removed too');
        }
        // The single form, with --json: a later issue straight into implement.
        await writeLocalIssue(repoPath, { number: 4, title: 'small fix', body: 'fix', labels: ['kind:impl'] });
        const single = await run(['--issue', '4', '--json']);
        assert.equal(single.code, 0, describeResult(single));
        const parsed = JSON.parse(single.stdout) as { results: PipelineResult[] };
        assert.deepEqual(
          parsed.results.map((r) => [r.issue, r.status, r.finalPhase, r.cycleCount, r.issueClosed]),
          [[4, 'completed', 'done', 1, true]],
        );
        const again = await run(['--issue', '4']);
        assert.equal(again.code, 1, 'a closed issue is refused');
        assert.match(again.stderr, /issue 4 .* is closed; no pipeline was started/);

        const { id } = await repoIdentity(repoPath);
        const parent = await env.client.workflow.getHandle(`${id}/pipeline-default/issue-3`).describe();
        assert.equal(parent.status.name, 'COMPLETED');
        const attrs = parent.searchAttributes as Record<string, unknown[]>;
        assert.equal(attrs['PipelinePhase']?.[0], 'done');
        assert.equal(attrs['PipelineCycle']?.[0], 3);
        assert.equal(attrs['PipelineAgent']?.[0], 'implementer');
        assert.equal(attrs['PipelineOutcome']?.[0], 'success');
        assert.equal(attrs['RepoId']?.[0], id);
      } finally {
        await model.close();
      }
    },
  );
});
