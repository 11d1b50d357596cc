/**
 * Decides what follows one model reply, by `stop_reason`: run tools, continue a
 * paused turn, ask once for a shorter reply after `max_tokens`, ask once for a
 * repaired answer after an invalid one, finish, or fail with a typed error.
 */
import type { JsonObject } from '../../contracts/json.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { isToolUse, textOf, type LlmContentBlock, type LlmResponse } from './llm-client.js';
import { checkFinalAnswer } from './structured-output.js';

export type TurnOutcome =
  | { readonly kind: 'tools'; readonly calls: ReadonlyArray<{ id: string; name: string; input: unknown }> }
  | { readonly kind: 'continue' }
  | { readonly kind: 'reply'; readonly content: readonly LlmContentBlock[] }
  | { readonly kind: 'done'; readonly output: JsonObject };

export interface OutcomeCounters {
  repairs: number;
  continuations: number;
}

const CUT_OFF_NOTE =
  'Your reply was cut off by the max_tokens limit. Reply again more concisely: either one tool call or only the final JSON answer.';
const CUT_OFF_TOOL_NOTE =
  'Error: your tool call was cut off by the max_tokens limit and was not run. Issue it again, shorter.';

function repairNote(issues: readonly string[]): string {
  return `Your final answer was rejected. Problems:\n${issues.map((i) => `- ${i}`).join('\n')}\nReply with only the corrected JSON object that satisfies the step's output schema.`;
}

export function decideOutcome(
  response: Pick<LlmResponse, 'content' | 'stop_reason'>,
  schema: Readonly<Record<string, unknown>>,
  counters: OutcomeCounters,
): TurnOutcome {
  const toolUses = response.content.filter(isToolUse);
  switch (response.stop_reason) {
    case 'refusal':
      throw new AgentError(
        FailureType.ModelRefusal,
        'the model refused to continue this step; review the issue text and the step prompt',
        {
          details: { stopReason: 'refusal' },
        },
      );
    case 'model_context_window_exceeded':
      throw new AgentError(
        FailureType.ModelContextExceeded,
        "the conversation exceeded the model's context window; split the step or reduce tool output",
        {
          details: { stopReason: 'model_context_window_exceeded' },
        },
      );
    case 'pause_turn':
      return { kind: 'continue' };
    case 'max_tokens': {
      if (counters.continuations >= 1) {
        throw new AgentError(
          FailureType.StructuredOutputInvalid,
          'the model hit max_tokens twice without a complete answer; raise model.maxTokens in the agent definition',
          {
            where: 'model.maxTokens',
            details: { stopReason: 'max_tokens' },
          },
        );
      }
      counters.continuations += 1;
      // Every tool_use needs a tool_result in the next user message, even a truncated one.
      const content: LlmContentBlock[] =
        toolUses.length > 0
          ? toolUses.map((t) => ({
              type: 'tool_result',
              tool_use_id: t.id,
              content: CUT_OFF_TOOL_NOTE,
              is_error: true,
            }))
          : [{ type: 'text', text: CUT_OFF_NOTE }];
      return { kind: 'reply', content };
    }
    default:
      break;
  }
  if (toolUses.length > 0)
    return { kind: 'tools', calls: toolUses.map((t) => ({ id: t.id, name: t.name, input: t.input })) };

  const checked = checkFinalAnswer(textOf(response.content), schema);
  if (checked.ok) return { kind: 'done', output: checked.value };
  if (counters.repairs >= 1) {
    throw new AgentError(
      FailureType.StructuredOutputInvalid,
      `the final answer is still invalid after one repair turn: ${checked.issues.slice(0, 5).join('; ')}`,
      {
        expected: "a JSON object valid against the step's output schema",
        details: { issues: checked.issues.slice(0, 20) },
      },
    );
  }
  counters.repairs += 1;
  return { kind: 'reply', content: [{ type: 'text', text: repairNote(checked.issues.slice(0, 20)) }] };
}
