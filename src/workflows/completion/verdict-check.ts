/**
 * Consults the agent's completion type (docs/concepts.md#completion-types) after an
 * iteration. The strategies are pure; what they need from outside (the issue's state
 * for externalState, a custom handler's answer) is fetched by activities first, and
 * only when the strategy asks for it. The handler is the run's snapshot of it.
 */
import type { StepDefinition } from '../../contracts/definition.js';
import type { Intent } from '../../contracts/intents.js';
import type { JsonObject } from '../../contracts/json.js';
import { snapshotOf } from '../../contracts/step-inputs.js';
import { evaluateVerdict, verdictNeeds } from './evaluate-verdict.js';
import type { VerdictDecision } from './verdict-types.js';
import { workspaceActivities } from '../run/activity-proxies.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

export interface VerdictArgs {
  readonly step: StepDefinition;
  readonly intent: Intent;
  readonly output: JsonObject;
  readonly assistantText: string;
  readonly closingValidated: boolean;
}

export async function decideVerdict(ctx: RunContext, session: RunSession, args: VerdictArgs): Promise<VerdictDecision> {
  const spec = ctx.definition.verdict;
  const needs = verdictNeeds(spec);
  const externalIssueState = needs.externalState
    ? (
        await workspaceActivities.checkExternalState({
          repoPath: ctx.input.repoPath,
          issue: ctx.input.issue,
          issueSource: ctx.input.issueSource,
        })
      ).state
    : undefined;
  const custom =
    needs.customHandler === undefined
      ? undefined
      : await workspaceActivities.evaluateCustomVerdict({
          agentDir: ctx.definition.agentDir,
          handlerPath: needs.customHandler,
          iteration: session.state.iteration,
          output: args.output,
          config: spec.config,
          ...snapshotOf(ctx.definition),
        });
  return evaluateVerdict(spec, {
    iteration: session.state.iteration,
    stepId: args.step.stepId,
    stepKind: args.step.stepKind,
    intent: args.intent,
    output: args.output,
    assistantText: args.assistantText,
    closingValidated: args.closingValidated,
    checkCount: session.state.checkCount,
    ...(externalIssueState === undefined ? {} : { externalIssueState }),
    ...(custom === undefined ? {} : { custom }),
  });
}
