/**
 * One step's conversation with Claude: the tool-use loop, durable across activity
 * retries (checkpoint per turn), safe (tools confined by code), and accounted for
 * (usage, cost, budget checked before every call). Called by the queryStep activity,
 * which passes Temporal's heartbeat, the previous attempt's heartbeat details and the
 * cancellation signal as `ctx`: this module does not import @temporalio/activity.
 */
import type { QueryStepRequest, QueryStepOutput } from '../../contracts/activities.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { totalTokens } from '../../contracts/usage.js';
import { createArtifactStore, stepArtifactDir } from '../artifacts/artifact-store.js';
import {
  createChangedPaths,
  stepToolContext,
  stepTools,
  toToolResultBlock,
  type StepToolDeps,
} from '../tools/tool-dispatcher.js';
import { defaultLog, ToolName, type LogFn } from '../tools/tool-types.js';
import { checkAsk } from '../tools/ask-tool.js';
import type { AskedQuestion } from '../../contracts/human-loop.js';
import {
  textOf,
  type LlmClient,
  type LlmContentBlock,
  type LlmResponse,
  type LlmToolDefinition,
} from './llm-client.js';
import {
  assertWithinBudget,
  costUsd,
  DEFAULT_PRICES,
  estimateTokens,
  priceFor,
  unknownModelNotice,
  type PriceTable,
} from './pricing.js';
import { buildRequest, createTurnContext, firstUserMessage } from './request-builder.js';
import {
  checkpoint,
  recordTurnUsage,
  restoreState,
  stepKey,
  toUsage,
  type StepCheckpoint,
  type StepState,
  noCheckpointYet,
} from './step-state.js';
import { decideOutcome } from './turn-outcome.js';
import { withTranscript, writeTranscript } from './step-transcript.js';

/** The tools' part (limits, bash env, the github backend) is StepToolDeps. */
export interface QueryStepDeps extends StepToolDeps {
  readonly llm: LlmClient;
  /** Overrides the default USD price table. */
  readonly prices?: PriceTable;
  readonly log?: LogFn;
  /** Re-sends the last heartbeat this often during long calls/commands (default 5 s). */
  readonly keepAliveMs?: number;
  /** Removes the worker's secrets from everything the step writes (artifacts, checkpoints). */
  readonly redact?: (text: string) => string;
}

export interface QueryStepContext {
  heartbeat(details: unknown): void;
  readonly resumeFrom?: unknown;
  readonly signal: AbortSignal;
  /**
   * Identifies this activity execution across its attempts (run id / activity id): the
   * on-disk checkpoint of the same execution is resumed even when no heartbeat got through.
   */
  readonly scope?: string;
}

const SUMMARY_CHARS = 1000;

/**
 * The step's output plus the paths its editor wrote (undefined when unknown: bash ran, or
 * the step resumed). For the worktree checkpoint only: stripped before history.
 */
export type QueryStepOutcome = QueryStepOutput & { readonly changedPaths?: readonly string[] };

export async function runQueryStep(
  deps: QueryStepDeps,
  input: QueryStepRequest,
  ctx: QueryStepContext,
): Promise<QueryStepOutcome> {
  const log = deps.log ?? defaultLog;
  const store = createArtifactStore(
    stepArtifactDir(input.artifactsDir, input.workflowId, input.stepId, input.iteration),
    deps.redact ? { redact: deps.redact } : {},
  );
  const step = stepKey(input.workflowId, input.stepId, input.iteration);
  const prices = deps.prices ?? DEFAULT_PRICES;
  const unpriced = unknownModelNotice(input.model.model, prices);
  if (unpriced !== undefined) log('warn', unpriced, { model: input.model.model, step });
  const maxTurns = Math.min(input.model.maxTurnsPerStep, input.budget.maxTurnsPerStep ?? Number.POSITIVE_INFINITY);
  const changes = createChangedPaths();
  const tools = stepToolContext(deps, input, { signal: ctx.signal, store, log, changes });
  const offered = stepTools(tools);
  const turnContext = createTurnContext(input.model.contextManagement, store);

  const state = await restoreState(ctx.resumeFrom, step, firstUserMessage(input), store, log, ctx.scope);
  if (state.resumedFromTurn !== undefined) {
    log('info', 'resuming step from checkpoint', { step, turn: state.resumedFromTurn });
    // Tools of the earlier attempt ran in the worktree; this one cannot name what they wrote.
    changes.markUnknown();
  }
  // Until the first new checkpoint, keep-alive heartbeats repeat the one we resumed from,
  // so a crash in between still resumes at the same place.
  let lastDetails: unknown = ctx.resumeFrom ?? noCheckpointYet(step);
  const keepAlive = setInterval(() => {
    try {
      ctx.heartbeat(lastDetails);
    } catch {
      // A failed keep-alive is not fatal; the per-turn heartbeat reports real problems.
    }
  }, deps.keepAliveMs ?? 5_000);
  keepAlive.unref();

  /** Asks the model for the next turn and checkpoints its answer before anything else can fail. */
  const nextAnswer = async (): Promise<AnswerView> => {
    if (state.turn >= maxTurns) {
      throw new AgentError(
        FailureType.BudgetExhausted,
        `step ${input.stepId} used its ${maxTurns} model turns without a final answer`,
        {
          where: 'model.maxTurnsPerStep',
          details: { turns: state.turn, usedUsd: state.costUsd, usedTokens: totalTokens(state.usage) },
        },
      );
    }
    const sent = await turnContext(state.messages);
    const request = buildRequest(input, sent.messages, offered, sent.shape);
    const estimatedInputTokens =
      state.lastCallTokens > 0
        ? state.lastCallTokens + estimateTokens(state.pendingChars)
        : estimateTokens(JSON.stringify(request).length);
    assertWithinBudget({
      budget: input.budget,
      usedUsage: state.usage,
      usedUsd: state.costUsd,
      estimatedInputTokens,
      price: priceFor(input.model.model, prices, estimatedInputTokens),
    });

    const response = await deps.llm.createMessage(request, { signal: ctx.signal });
    const turnUsage = toUsage(response.usage);
    recordTurnUsage(state, turnUsage, costUsd(turnUsage, input.model.model, prices));
    state.messages.push({ role: 'assistant', content: response.content });
    const text = textOf(response.content);
    if (text.trim() !== '') state.lastText = text;
    state.pending = { stopReason: response.stop_reason ?? null };
    await save();
    ctx.signal.throwIfAborted();
    return response;
  };

  // Checkpoints go to disk (synced) before the heartbeat: a lost or throttled heartbeat loses nothing.
  const save = async (): Promise<void> => {
    const details: StepCheckpoint = await checkpoint(state, step, store, ctx.scope);
    lastDetails = details;
    ctx.heartbeat(details);
  };

  try {
    for (;;) {
      ctx.signal.throwIfAborted();
      // A resumed attempt whose last checkpoint holds an answer not yet acted on acts on it:
      // a model turn that was paid for is never sent again.
      const answer = state.pending ? pendingAnswer(state) : await nextAnswer();
      const outcome = decideOutcome(answer, input.schema.full, state);
      if (outcome.kind === 'done') {
        const stopReason = answer.stop_reason ?? 'end_turn';
        const transcript = await writeTranscript(store, input, state, stopReason, 'completed', offered);
        return {
          output: outcome.output,
          usage: state.usage,
          costUsd: state.costUsd,
          turns: state.turn,
          stopReason,
          toolsUsed: state.toolsUsed,
          summary: state.lastText.slice(0, SUMMARY_CHARS),
          transcript,
          ...(changes.list() === undefined ? {} : { changedPaths: changes.list() }),
        };
      }
      const question = outcome.kind === 'tools' ? askedQuestion(outcome.calls, offered) : undefined;
      if (question !== undefined) {
        // The model asked: the step ends here, no tool runs and no model call follows (ask-tool.ts).
        if (!state.toolsUsed.includes(ToolName.Ask)) state.toolsUsed.push(ToolName.Ask);
        const transcript = await writeTranscript(store, input, state, 'tool_use', 'asked', offered);
        return {
          output: {},
          usage: state.usage,
          costUsd: state.costUsd,
          turns: state.turn,
          stopReason: 'tool_use',
          toolsUsed: state.toolsUsed,
          summary: state.lastText.slice(0, SUMMARY_CHARS),
          transcript,
          question,
          ...(changes.list() === undefined ? {} : { changedPaths: changes.list() }),
        };
      }
      if (outcome.kind !== 'continue') {
        const content: LlmContentBlock[] = outcome.kind === 'reply' ? [...outcome.content] : [];
        if (outcome.kind === 'tools') {
          // Sequential on purpose: calls share one worktree and their order must be reproducible.
          for (const [i, call] of outcome.calls.entries()) {
            if (!state.toolsUsed.includes(call.name)) state.toolsUsed.push(call.name);
            content.push(await toToolResultBlock(call, tools, `tool-output-t${state.turn}-${i}`));
          }
        }
        state.messages.push({ role: 'user', content });
        state.pendingChars = JSON.stringify(content).length;
      }
      state.pending = undefined;
      await save();
    }
  } catch (error) {
    throw await withTranscript(error, store, input, state, ctx.signal, offered);
  } finally {
    clearInterval(keepAlive);
  }
}

type AnswerView = Pick<LlmResponse, 'content' | 'stop_reason'>;

/** The first well-formed `ask` among a turn's calls, when the step was offered it; a bad one is a tool error. */
function askedQuestion(
  calls: ReadonlyArray<{ readonly name: string; readonly input: unknown }>,
  offered: readonly LlmToolDefinition[],
): AskedQuestion | undefined {
  if (!offered.some((t) => t.name === ToolName.Ask)) return undefined;
  for (const call of calls) {
    if (call.name !== ToolName.Ask || typeof call.input !== 'object' || call.input === null) continue;
    const checked = checkAsk(call.input as Record<string, unknown>);
    if (checked.ok) return checked.question;
  }
  return undefined;
}

/** The checkpointed model answer a resumed attempt still has to act on. */
function pendingAnswer(state: StepState): AnswerView {
  const last = state.messages[state.messages.length - 1];
  return { content: last?.role === 'assistant' ? last.content : [], stop_reason: state.pending?.stopReason ?? null };
}
