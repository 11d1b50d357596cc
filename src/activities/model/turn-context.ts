/**
 * What one turn of a step sends of its conversation, by the agent's context management
 * (agent.json `runner.model.contextManagement`, contracts/model-options.ts): older tool
 * results masked here (observation-masking.ts), old turns collapsed into a digest
 * (turn-collapse.ts), cleared by the API's own context editing
 * (`clear_tool_uses_20250919`, which the API applies before the model sees the prompt),
 * or everything whole. The step keeps its whole conversation either way.
 */
import { ContextStrategy, DEFAULT_CONTEXT_MANAGEMENT, type ContextManagement } from '../../contracts/model-options.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { LlmMessage, LlmRequest } from './llm-client.js';
import { createMaskedPlaceholder } from './masked-placeholder.js';
import { maskObservations, type MaskedView } from './observation-masking.js';
import { collapseTurns, createCollapsedDigest } from './turn-collapse.js';
import type { RequestShape } from './request-builder.js';

export interface TurnContext {
  readonly messages: readonly LlmMessage[];
  readonly shape: RequestShape;
}

/** The API's tool-result clearing, configured from the agent's settings. */
export function clearToolUsesEdit(settings: ContextManagement): NonNullable<LlmRequest['context_management']> {
  return {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: settings.triggerTokens },
        keep: { type: 'tool_uses', value: settings.keepToolResults },
        clear_at_least: { type: 'input_tokens', value: settings.clearAtLeastTokens },
      },
    ],
  };
}

function shaped(view: MaskedView): TurnContext {
  return {
    messages: view.messages,
    shape: {
      ...(view.frontier ? { frontier: view.frontier } : {}),
      ...(view.previousFrontier ? { previousFrontier: view.previousFrontier } : {}),
      ...(view.stableEnd ? { stableEnd: view.stableEnd } : {}),
    },
  };
}

/** One per step: `settings` absent (definitions from before issue 38) means the default. */
export function createTurnContext(
  settings: ContextManagement | undefined,
  store: ArtifactStore,
): (messages: readonly LlmMessage[]) => Promise<TurnContext> {
  const s = settings ?? DEFAULT_CONTEXT_MANAGEMENT;
  switch (s.strategy) {
    case ContextStrategy.Mask: {
      const placeholder = createMaskedPlaceholder(store);
      return async (messages) => shaped(await maskObservations(messages, s, placeholder));
    }
    case ContextStrategy.Collapse: {
      const digest = createCollapsedDigest(store);
      return async (messages) => shaped(await collapseTurns(messages, s, digest));
    }
    case ContextStrategy.ApiClear: {
      const contextManagement = clearToolUsesEdit(s);
      return (messages) => Promise.resolve({ messages, shape: { contextManagement } });
    }
    case ContextStrategy.None:
      return (messages) => Promise.resolve({ messages, shape: {} });
  }
}
