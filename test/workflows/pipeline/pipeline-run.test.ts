/**
 * The pipeline workflow end to end, offline: three tiny agents (consider → detail →
 * implement) over a local issue run to the terminal phase with the labels and the
 * handoff comments the definition says; a validator sends the issue back a phase; the
 * cycle limit stops a pipeline. Real dev server, real git, scripted model answers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HandOverBranchOutput } from '../../../src/contracts/pipeline-run.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { agentRule, writePipelineAgents } from './pipeline-agents.js';
import { pipelineDefinition, transformer } from './pipeline-definitions.js';
import { childrenOf, ISSUE, pipelineRepo, readIssueFile, runPipelineScenario } from './pipeline-scenario.js';

after(teardownEnv);

/** The results of the pipeline's handOverBranch activities, in order, from its history. */
async function handOvers(workflowId: string): Promise<HandOverBranchOutput[]> {
  const history = await (await testEnv()).client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Map<string, string>();
  const out: HandOverBranchOutput[] = [];
  for (const event of history.events ?? []) {
    const s = event.activityTaskScheduledEventAttributes;
    if (s?.activityType?.name) scheduled.set(String(event.eventId), s.activityType.name);
    const done = event.activityTaskCompletedEventAttributes;
    if (done && scheduled.get(String(done.scheduledEventId)) === 'handOverBranch') {
      const data = done.result?.payloads?.[0]?.data;
      out.push(JSON.parse(Buffer.from(data ?? new Uint8Array()).toString('utf8')) as HandOverBranchOutput);
    }
  }
  return out;
}

const AGENTS = ['considerer', 'detailer', 'implementer', 'reviewer'];

async function definitionWithAgents(overrides: Parameters<typeof pipelineDefinition>[0] = {}) {
  const dirs = await writePipelineAgents(AGENTS);
  const base = pipelineDefinition(overrides);
  return { ...base, agents: base.agents.map((a) => ({ ...a, agentDir: dirs[a.id]! })) };
}

const threeAgents = {
  agents: [
    transformer('considerer', 'done', { fallbackPhases: { 'handoff-detail': 'detail' } }),
    transformer('detailer', 'implement', { fallbackPhases: { 'handoff-impl': 'implement' } }),
    transformer('implementer', 'done', { closeOnComplete: true }),
  ],
  commentTemplates: {
    considererHandoffDetail: 'Considered #{issue}: {summary}',
    detailerHandoffImpl: 'Plan for #{issue}: {plan}',
    implementerSuccess: 'Implemented ({from} → {to}, cycle {cycle}): {summary} {unknown}',
  },
};

const happyRules = [
  agentRule('considerer', ISSUE, { verdict: 'handoff-detail', summary: 'worth doing' }),
  agentRule('detailer', ISSUE, { verdict: 'handoff-impl', summary: 'detailed', plan: 'add sub() and a test' }),
  agentRule('implementer', ISSUE, { summary: 'sub() added' }),
];

test('consider → detail → implement runs to the terminal phase with the labels and comments of the definition', async () => {
  const definition = await definitionWithAgents(threeAgents);
  const repoPath = await pipelineRepo(['bug', 'kind:consider', 'P1']);
  const { result, model, workflowId } = await runPipelineScenario(repoPath, definition, happyRules);

  assert.equal(result.status, 'completed', result.reason);
  assert.equal(result.finalPhase, 'done');
  assert.equal(result.cycleCount, 3);
  assert.equal(result.issueClosed, true);
  assert.deepEqual(
    result.history.map((t) => [t.cycle, t.from, t.to, t.agent, t.outcome]),
    [
      [1, 'consider', 'detail', 'considerer', 'handoff-detail'],
      [2, 'detail', 'implement', 'detailer', 'handoff-impl'],
      [3, 'implement', 'done', 'implementer', 'success'],
    ],
  );
  const issue = await readIssueFile(repoPath);
  assert.equal(issue.state, 'closed');
  // The pipeline's labels moved to done; the prioritizer label went with the terminal move; others kept.
  assert.deepEqual([...issue.labels].sort(), ['bug', 'done']);
  const keys = issue.commentKeys.filter((k) => k.startsWith('pipeline:'));
  assert.equal(keys.length, 3, `pipeline comments: ${keys.join(', ')}`);
  assert.ok(keys.every((k) => k.startsWith(`pipeline:${workflowId}:`)));
  assert.match(issue.text, /Considered #2: worth doing/);
  assert.match(issue.text, /Plan for #2: add sub\(\) and a test/);
  assert.match(issue.text, /Implemented \(implement → done, cycle 3\): sub\(\) added \{unknown\}/);
  // Each agent answered once, and only with its parameters applied (issue, style default).
  assert.equal(model.stats().unmatched, 0);
  assert.deepEqual(model.stats().byRule, {
    'considerer-handoff-detail': 1,
    'detailer-handoff-impl': 1,
    'implementer-none': 1,
  });
  const env = await testEnv();
  const children = await childrenOf(env.client, workflowId);
  assert.deepEqual(
    children.map((c) => c.workflowId.replace(/^test-[0-9a-f]+\//, '')),
    ['considerer/issue-2', 'detailer/issue-2', 'implementer/issue-2'],
  );
  assert.ok(children.every((c) => c.status === 'COMPLETED'));
});

test('a validator sends the issue back a phase, then approves and closes it', async () => {
  const definition = await definitionWithAgents({ rules: { maxCycles: 8, cycleDelayMs: 0, maxConsecutivePhases: 0 } });
  const repoPath = await pipelineRepo(['kind:impl']);
  const rules = [
    agentRule('implementer', ISSUE, { summary: 'implemented' }),
    agentRule('reviewer', ISSUE, { verdict: 'rejected', summary: 'missing test', times: 1 }),
    agentRule('reviewer', ISSUE, { verdict: 'approved', summary: 'good' }),
  ];
  const { result, model, workflowId } = await runPipelineScenario(repoPath, definition, rules);
  assert.equal(result.status, 'completed', result.reason);
  assert.deepEqual(
    result.history.map((t) => `${t.from}→${t.to}:${t.outcome}`),
    ['implement→review:success', 'review→implement:rejected', 'implement→review:success', 'review→done:approved'],
  );
  // 1 issue = 1 branch = 1 agent: each dispatch is preceded by a recorded hand-over to its agent.
  const handed = await handOvers(workflowId);
  assert.deepEqual(
    handed.map((h) => h.to),
    ['implementer', 'reviewer', 'implementer', 'reviewer'],
  );
  assert.ok(handed.every((h) => h.branch === 'agent/issue-2'));
  assert.equal(result.issueClosed, true, 'closeCondition approved met');
  const issue = await readIssueFile(repoPath);
  assert.deepEqual(issue.labels, ['done']);
  assert.equal(issue.state, 'closed');
  assert.equal(model.stats().byRule['implementer-none'], 2);
});

test('maxCycles stops the pipeline in its actionable phase, labels where the last transition put them', async () => {
  const definition = await definitionWithAgents({
    ...threeAgents,
    rules: { maxCycles: 2, cycleDelayMs: 0, maxConsecutivePhases: 0 },
  });
  const repoPath = await pipelineRepo(['kind:consider']);
  const { result } = await runPipelineScenario(repoPath, definition, happyRules);
  assert.equal(result.status, 'cycle_exceeded');
  assert.equal(result.cycleCount, 2);
  assert.equal(result.finalPhase, 'implement');
  assert.equal(result.issueClosed, false);
  assert.match(result.reason, /maxCycles \(2/);
  const issue = await readIssueFile(repoPath);
  assert.deepEqual(issue.labels, ['kind:impl']);
  assert.equal(issue.state, 'open');
});

test('an agent that does not load fails the pipeline before any dispatch, naming it', async () => {
  const definition = await definitionWithAgents(threeAgents);
  const broken = {
    ...definition,
    agents: definition.agents.map((a) => (a.id === 'detailer' ? { ...a, agentDir: '/nonexistent/detailer' } : a)),
  };
  const repoPath = await pipelineRepo(['kind:consider']);
  const { result, model } = await runPipelineScenario(repoPath, broken, happyRules);
  assert.equal(result.status, 'failed');
  assert.match(result.reason, /agents did not load.*\/nonexistent\/detailer/);
  assert.equal(result.cycleCount, 0);
  assert.equal(model.stats().requests, 0);
  assert.deepEqual((await readIssueFile(repoPath)).labels, ['kind:consider']);
});
