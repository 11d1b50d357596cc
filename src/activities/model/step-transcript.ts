/**
 * A step's transcript: every message of its conversation (whole, never masked), its usage
 * and cost, written to the artifact store when the step ends, and named in a typed failure
 * so an operator can see what the model did.
 */
import type { QueryStepRequest } from '../../contracts/activities.js';
import { AgentError } from '../../contracts/errors.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { LlmToolDefinition } from './llm-client.js';
import type { StepState } from './step-state.js';

export async function writeTranscript(
  store: ArtifactStore,
  input: QueryStepRequest,
  state: StepState,
  stopReason: string,
  outcome: string,
  offered: readonly LlmToolDefinition[],
) {
  return store.putJson('transcript', {
    workflowId: input.workflowId,
    stepId: input.stepId,
    stepKind: input.stepKind,
    iteration: input.iteration,
    model: input.model.model,
    outcome,
    stopReason,
    turns: state.turn,
    usage: state.usage,
    costUsd: state.costUsd,
    toolsUsed: state.toolsUsed,
    system: input.systemPrompt,
    tools: offered.map((t) => t.name),
    messages: state.messages,
  });
}

/** Typed failures carry the transcript path so an operator can see what the model did. */
export async function withTranscript(
  error: unknown,
  store: ArtifactStore,
  input: QueryStepRequest,
  state: StepState,
  signal: AbortSignal,
  offered: readonly LlmToolDefinition[],
): Promise<unknown> {
  if (signal.aborted || !AgentError.isInstance(error)) return error;
  try {
    const ref = await writeTranscript(store, input, state, 'error', error.code, offered);
    return new AgentError(error.code, error.message, {
      ...(error.where !== undefined ? { where: error.where } : {}),
      ...(error.expected !== undefined ? { expected: error.expected } : {}),
      details: { ...error.details, transcript: ref.path, turns: state.turn },
      retryable: error.retryable,
      ...(error.cause !== undefined ? { cause: error.cause } : {}),
    });
  } catch {
    return error;
  }
}
