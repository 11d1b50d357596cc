/**
 * What agent.json's `runner.model` may say beyond the model id (issue 38): the `effort`
 * and `thinking` settings passed through to the Messages API, and how a step's tool loop
 * keeps its conversation short (context management). Closed sets with their defaults,
 * shared by the definition (validation, normalising) and the model activity.
 */

/** `output_config.effort` of the Messages API; absent: the model's default. */
export const Effort = { Low: 'low', Medium: 'medium', High: 'high', XHigh: 'xhigh', Max: 'max' } as const;
export type Effort = (typeof Effort)[keyof typeof Effort];

/** `thinking.type` of the Messages API; absent: the model's default. */
export const Thinking = { Adaptive: 'adaptive', Disabled: 'disabled' } as const;
export type Thinking = (typeof Thinking)[keyof typeof Thinking];

/**
 * - `mask`: older tool results are replaced in the request by a short placeholder naming
 *   the call, its size and the file holding the full text (observation masking);
 * - `collapse`: older turns are taken out of the request altogether, each left as one line
 *   of a digest after the step prompt (the model's note, the call, the output's size and
 *   file), so the prompt stops growing with the turns;
 * - `api-clear`: the API's own context editing (`clear_tool_uses_20250919`, beta);
 * - `none`: every tool result is sent whole on every turn.
 */
export const ContextStrategy = { Mask: 'mask', Collapse: 'collapse', ApiClear: 'api-clear', None: 'none' } as const;
export type ContextStrategy = (typeof ContextStrategy)[keyof typeof ContextStrategy];

export interface ContextManagement {
  readonly strategy: ContextStrategy;
  /** The newest tool results always sent whole (`mask`, `collapse`: at least this many; `api-clear`: `keep`). */
  readonly keepToolResults: number;
  /** `mask`, `collapse`: results are masked (turns collapsed) this many at a time, so the cached prefix changes once per chunk. */
  readonly maskChunk: number;
  /** `mask`: results shorter than this stay whole (a placeholder would not be shorter). */
  readonly minMaskChars: number;
  /** `api-clear`: the input size that triggers clearing (`trigger`). */
  readonly triggerTokens: number;
  /** `api-clear`: the least to clear once triggered (`clear_at_least`), so a cache rewrite pays off. */
  readonly clearAtLeastTokens: number;
}

/**
 * The default, from the bench's billed-dollar comparison (phase `tokens`, a 40-turn step,
 * docs/model-and-cost.md): collapsing old turns with 2 kept whole, in chunks of 8, billed
 * the least of the settings that keep more than the newest output in view (0.81x of no
 * management, masking 0.87x) and is the only one whose prompt stops growing with the turns
 * (last 10 turns 1.37x the first 10; masking 1.92x).
 */
export const DEFAULT_CONTEXT_MANAGEMENT: ContextManagement = {
  strategy: ContextStrategy.Collapse,
  keepToolResults: 2,
  maskChunk: 8,
  minMaskChars: 600,
  triggerTokens: 30_000,
  clearAtLeastTokens: 5_000,
};

/** agent.json's `runner.model.contextManagement`: every key optional, defaults above. */
export type ContextManagementInput = Partial<ContextManagement>;

/** agent.json `runner.model`, with defaults applied (contracts/definition.ts re-exports it). */
export interface ModelSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly maxTurnsPerStep: number;
  /** `output_config.effort`; absent: the model's default. */
  readonly effort?: Effort;
  /** `thinking.type`; absent: the model's default. */
  readonly thinking?: Thinking;
  /** How the step's tool loop keeps the conversation short; absent (older definitions): the default. */
  readonly contextManagement?: ContextManagement;
}
