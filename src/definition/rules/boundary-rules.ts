/**
 * Upstream `runner.boundaries` (allowedTools, permissionMode) mapped onto our tool
 * policy, never ignored silently. Our steps have bash and the text editor (confined to
 * the worktree, sandboxed), TodoWrite (the plan) and, with GitHub integration, the
 * harness's `github` tool; every boundary operation (close, merge, push) is kept for
 * the boundary hook; `readOnly` removes writes (by default in verification steps:
 * contracts/step-kind-tools). So:
 *   - a tool we do not provide is a warning naming it and why (UNSUPPORTED_TOOLS);
 *   - allowedTools without any write-capable tool (Write, Edit, MultiEdit, Bash)
 *     makes every step read-only (normalise: readOnlyAgent);
 *   - agent-level `permissionMode` never reaches a kinded step (upstream: the step kind
 *     default wins), so `plan`, or a writing mode while verification steps stay
 *     read-only, is a warning; step-level modes are honoured (normalise-steps).
 */
import { warning, type Problem } from '../problem.js';
import type { DefinitionRule } from './rule.js';

/** Upstream tool names we provide (bash and the text editor serve the file tools). */
export const PROVIDED_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Bash',
  'Glob',
  'Grep',
  'LS',
  'TodoWrite',
  'mcp__github__github_read',
]);

/** Upstream tools we do not provide, and why (docs/registry-reference.md, "Tools"). */
export const UNSUPPORTED_TOOLS: Readonly<Record<string, string>> = {
  Task: 'sub-agents are out of scope: one run is one agent on one issue',
  WebFetch: 'no network in the agent sandbox, by design',
  WebSearch: 'no network in the agent sandbox, by design',
  Skill: 'Claude Code skills are not loaded; put the instructions in the step prompt',
  AskUserQuestion: 'runs are unattended; the operator steers with guidance (retry --guidance)',
  NotebookEdit: 'notebooks are edited as files with the text editor',
};
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
  for (const [i, tool] of tools.entries()) {
    if (tool === '*' || PROVIDED_TOOLS.has(tool)) continue;
    problems.push(
      warning({
        code: 'TOOL_UNSUPPORTED',
        file: ctx.agentFile,
        pointer: `/runner/boundaries/allowedTools/${i}`,
        rule: 'allowed-tools-mapped',
        expected: `tools among ${[...PROVIDED_TOOLS].join(', ')}`,
        message: `unsupported tool ${tool}: steps run without it (${UNSUPPORTED_TOOLS[tool] ?? 'not provided by this harness'})`,
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
  const mode = boundaries?.permissionMode;
  const defaulted = ctx.steps.filter(
    (s) => s.stepKind === 'verification' && s.raw.readOnly === undefined && s.raw.permissionMode === undefined,
  );
  if ((mode === 'acceptEdits' || mode === 'bypassPermissions') && defaulted.length > 0) {
    problems.push(
      warning({
        code: 'PERMISSION_MODE_AGENT_LEVEL',
        file: ctx.agentFile,
        pointer: '/runner/boundaries/permissionMode',
        rule: 'permission-mode-mapped',
        expected: "step-level permissionMode 'acceptEdits' (or readOnly: false) on a verification step that must write",
        message: `agent-level permissionMode '${mode}' does not apply to kinded steps (upstream: the step kind default wins); verification step(s) ${defaulted.map((s) => s.key).join(', ')} stay read-only`,
      }),
    );
  }
  return problems;
};
