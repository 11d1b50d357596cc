/**
 * The effects of one transition, each an idempotent activity, in upstream's order:
 * labels (one set change: add the target's label, remove the pipeline's others), the
 * handoff comment (idempotency key from the workflow's run and the cycle, so a retried
 * or resumed cycle never posts twice), then the close when the rule says so. A crash
 * between them resumes at the first one not recorded in history: nothing is undone,
 * nothing replayed (upstream needed a saga with compensations and an outbox [BUG]).
 */
import type { PipelineAgent, PipelineDefinition } from '../../contracts/pipeline.js';
import type { PipelineInput } from '../../contracts/pipeline-run.js';
import type { RunResult } from '../../contracts/run.js';
import { findTemplate, handoffVariables, renderTemplate } from './handoff-template.js';
import { pipelineActivities } from './pipeline-proxies.js';
import { labelPlan, shouldClose } from './transition.js';

export interface CycleFacts {
  readonly cycle: number;
  readonly from: string;
  readonly to: string;
  readonly agent: PipelineAgent;
  readonly outcome: string;
  /** The child's result (handoff data), absent when the run ended without one. */
  readonly result?: RunResult;
  /** `<workflowId>:<runId>`: a later pipeline run of the same issue posts its own comments. */
  readonly executionKey: string;
}

export interface CycleEffects {
  readonly labels: readonly string[];
  readonly comment?: { readonly key: string; readonly outcome: 'added' | 'already-present' };
  readonly closed: boolean;
}

export function commentKey(executionKey: string, cycle: number): string {
  return `pipeline:${executionKey}:cycle-${cycle}`;
}

export async function applyCycleEffects(
  input: PipelineInput,
  definition: PipelineDefinition,
  facts: CycleFacts,
): Promise<CycleEffects> {
  const ref = { repoPath: input.repoPath, issueSource: input.issueSource, issue: input.issue };
  // Read again after the run: the run or a person may have changed them meanwhile.
  const current = await pipelineActivities.readIssueLabels(ref);
  const plan = labelPlan(current.labels, facts.to, definition);
  const labels =
    plan.add.length === 0 && plan.remove.length === 0
      ? current.labels
      : await pipelineActivities.applyPipelineLabels({ ...ref, add: plan.add, remove: plan.remove });

  let comment: CycleEffects['comment'];
  const found = findTemplate(definition.commentTemplates, facts.agent.id, facts.outcome);
  if (found !== undefined) {
    const text = renderTemplate(
      found.template,
      handoffVariables(facts.result?.handoff ?? {}, {
        issue: String(input.issue),
        agent: facts.agent.id,
        outcome: facts.outcome,
        from: facts.from,
        to: facts.to,
        cycle: String(facts.cycle),
      }),
    );
    const key = commentKey(facts.executionKey, facts.cycle);
    comment = { key, outcome: await pipelineActivities.postPipelineComment({ ...ref, text, idempotencyKey: key }) };
  }

  let closed = false;
  if (shouldClose(facts.agent, facts.to, facts.outcome, definition)) {
    await pipelineActivities.closePipelineIssue(ref);
    closed = true;
  }
  return { labels, ...(comment ? { comment } : {}), closed };
}
