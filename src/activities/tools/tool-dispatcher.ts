/**
 * Runs one `tool_use` block and turns it into a `tool_result` block. Unknown tools
 * and tools the step kind does not allow become error results the model can read;
 * only cancellation (and harness faults) propagate as exceptions.
 */
import { runBash } from './bash-tool.js';
import { runEditor } from './editor-tool.js';
import { toolPolicyFor } from './tool-policy.js';
import { ToolName, type ToolContext, type ToolResult } from './tool-types.js';

export interface ToolUseRequest {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error?: boolean;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export async function executeTool(call: ToolUseRequest, ctx: ToolContext, label: string): Promise<ToolResult> {
  const policy = toolPolicyFor(ctx.stepKind, ctx.readOnly);
  if (!(policy.tools as readonly string[]).includes(call.name)) {
    return {
      content: `Error: tool ${call.name} is not available in a ${ctx.stepKind} step. Available: ${policy.tools.join(', ')}.`,
      isError: true,
    };
  }
  const input = asRecord(call.input);
  if (call.name === ToolName.Bash) {
    // A shell can change any file: the step's checkpoint then scans the whole worktree.
    ctx.changes?.markUnknown();
    return runBash(input, ctx, label);
  }
  return runEditor(input, ctx, label);
}

export async function toToolResultBlock(
  call: ToolUseRequest,
  ctx: ToolContext,
  label: string,
): Promise<ToolResultBlock> {
  const result = await executeTool(call, ctx, label);
  return result.isError
    ? { type: 'tool_result', tool_use_id: call.id, content: result.content, is_error: true }
    : { type: 'tool_result', tool_use_id: call.id, content: result.content };
}
