/**
 * Upstream `runner.boundaries` (allowedTools, permissionMode) mapped onto our tool
 * policy, never ignored silently. Our steps have two tools, bash and the text editor,
 * confined to the worktree, sandboxed, with every boundary operation (close, merge,
 * push) kept for the boundary hook; `readOnly` removes writes. So:
 *   - a tool we do not provide (Task, WebFetch, Skill, mcp__*, ...) is a warning;
 *   - allowedTools without any write-capable tool (Write, Edit, MultiEdit, Bash)
 *     makes every step read-only (normalise: readOnlyAgent);
 *   - agent-level `permissionMode: plan` is a warning: upstream lets the step-kind
 *     default win over it, so it never applied to kinded steps; step-level `plan`
 *     is honoured as read-only (normalise-steps).
 */
import { warning, type Problem } from '../problem.js';
import type { DefinitionRule } from './rule.js';

/** Upstream tool names we provide (through bash and the text editor). */
export const PROVIDED_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Bash',
  'Glob',
  'Grep',
  'LS',
]);
export const WRITE_TOOLS: readonly string[] = ['Write', 'Edit', 'MultiEdit', 'Bash'];

/** True when allowedTools is given and names no tool that can write. */
export function readOnlyByAllowedTools(allowedTools: readonly string[] | undefined): boolean {
  if (allowedTools === undefined || allowedTools.includes('*')) return false;
  return !allowedTools.some((t) => WRITE_TOOLS.includes(t));
}

export const boundariesMapped: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  const boundaries = ctx.agent.runner.boundaries;
  const tools = boundaries?.allowedTools ?? [];
  const unsupported = tools.filter((t) => t !== '*' && !PROVIDED_TOOLS.has(t));
  if (unsupported.length > 0) {
    problems.push(
      warning({
        code: 'TOOL_UNSUPPORTED',
        file: ctx.agentFile,
        pointer: '/runner/boundaries/allowedTools',
        rule: 'allowed-tools-mapped',
        expected: `tools among ${[...PROVIDED_TOOLS].join(', ')} (served by bash and the text editor)`,
        message: `unsupported tool(s) ${unsupported.join(', ')}: steps run without them`,
      }),
    );
  }
  if (boundaries?.permissionMode === 'plan') {
    problems.push(
      warning({
        code: 'PERMISSION_MODE_AGENT_LEVEL',
        file: ctx.agentFile,
        pointer: '/runner/boundaries/permissionMode',
        rule: 'permission-mode-mapped',
        expected: "step-level permissionMode 'plan' (or readOnly) on the steps that must not write",
        message:
          "agent-level permissionMode 'plan' does not apply to kinded steps (upstream: the step kind default wins); steps keep the standard tool policy",
      }),
    );
  }
  return problems;
};
