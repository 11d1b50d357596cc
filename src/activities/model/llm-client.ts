/**
 * The LLM port: one Messages API call, nothing else. The step loop depends on this
 * interface only; the Anthropic adapter implements it, tests may fake it. Shapes
 * follow the Messages API wire format so the adapter stays a thin pass-through.
 * Implementations throw AgentError (see model-errors.ts) or the signal's reason.
 */

export interface LlmTextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: { readonly type: 'ephemeral' };
}

export interface LlmToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface LlmToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: boolean;
  readonly cache_control?: { readonly type: 'ephemeral' };
}

/** Other block kinds (thinking, server tools) are carried through untouched. */
export interface LlmOtherBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export type LlmContentBlock = LlmTextBlock | LlmToolUseBlock | LlmToolResultBlock | LlmOtherBlock;

export interface LlmMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly LlmContentBlock[];
}

export interface LlmToolDefinition {
  readonly type: string;
  readonly name: string;
  readonly [key: string]: unknown;
}

export interface LlmRequest {
  readonly model: string;
  readonly max_tokens: number;
  readonly system: readonly LlmTextBlock[];
  readonly tools: readonly LlmToolDefinition[];
  readonly messages: readonly LlmMessage[];
  readonly output_config?: {
    readonly format: { readonly type: 'json_schema'; readonly schema: Readonly<Record<string, unknown>> };
    readonly effort?: string;
  };
  /** `{ type: 'adaptive' | 'disabled' }`; absent: the model's default. */
  readonly thinking?: { readonly type: string };
  /** The API's context editing (beta `context-management-2025-06-27`; the adapter sends the header). */
  readonly context_management?: { readonly edits: ReadonlyArray<Readonly<Record<string, unknown>>> };
}

export interface LlmUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

export interface LlmResponse {
  readonly id: string;
  readonly model: string;
  readonly content: readonly LlmContentBlock[];
  readonly stop_reason: string | null;
  readonly usage: LlmUsage;
}

export interface LlmClient {
  createMessage(
    request: LlmRequest,
    options: { readonly signal: AbortSignal },
  ): Promise<LlmResponse & { readonly headers: Readonly<Record<string, string>> }>;
}

export function isToolUse(block: LlmContentBlock): block is LlmToolUseBlock {
  return block.type === 'tool_use';
}

export function isText(block: LlmContentBlock): block is LlmTextBlock {
  return block.type === 'text' && typeof (block as { text?: unknown }).text === 'string';
}

export function textOf(content: readonly LlmContentBlock[]): string {
  return content
    .filter(isText)
    .map((b) => b.text)
    .join('\n');
}
