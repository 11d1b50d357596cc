/**
 * The `github` tool: the harness's hands on the issue tracker, in place of `gh` in the
 * agent's shell (which has no credential and no network by design). Upstream agents
 * read issues through `mcp__github__github_read` and post with `gh issue comment`; here
 * both go through this tool, which the step activity runs with the worker's GitHub
 * connection. The token never leaves the activity: it is not an argument, not in a
 * result (results are redacted), not in the agent's environment.
 *
 * Actions, allowed by step kind (contracts/step-kind-tools):
 * - `issue_view` { number? }: an issue with its comments (default: the run's issue);
 * - `pr_view` { number }: a pull request with its comments (GitHub runs only);
 * - `comment` { body }: a comment on the run's own issue, never another one;
 * - `set_labels` { add?, remove? }: on the run's own issue, only labels the agent
 *   declares in `runner.integrations.github.labels`.
 * Closing, reopening, merging are not actions: the boundary hook does them after a
 * validated `closing`. With local issues the same actions work on the local store.
 */
import { createHash } from 'node:crypto';
import { AgentError } from '../../contracts/errors.js';
import { ALL_GITHUB_ACTIONS, type GitHubAction } from '../../contracts/step-kind-tools.js';
import type { LlmToolDefinition } from '../model/llm-client.js';
import { truncateToolOutput } from './output-truncation.js';
import { ToolName, type ToolContext, type ToolResult } from './tool-types.js';

const MAX_COMMENT_CHARS = 60_000;

export const GITHUB_TOOL: LlmToolDefinition = {
  type: 'custom',
  name: ToolName.GitHub,
  description:
    "Read the issue tracker and, in a closure step, comment on this run's issue or set its declared labels. " +
    "Actions: issue_view {number?} (default: this run's issue), pr_view {number}, comment {body}, " +
    'set_labels {add?, remove?}. Closing the issue is not an action: answer with the closing intent.',
  input_schema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: [...ALL_GITHUB_ACTIONS] },
      number: { type: 'integer', minimum: 1 },
      body: { type: 'string' },
      add: { type: 'array', items: { type: 'string' } },
      remove: { type: 'array', items: { type: 'string' } },
    },
    required: ['action'],
  },
};

const fail = (content: string): ToolResult => ({ content: `Error: ${content}`, isError: true });

function strings(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

export async function runGitHub(
  input: Record<string, unknown>,
  ctx: ToolContext,
  allowed: readonly GitHubAction[],
  label = 'github-output',
): Promise<ToolResult> {
  const backend = ctx.run?.github;
  if (ctx.run === undefined || backend === undefined) return fail('the github tool is not available in this run');
  const { issue, workflowId } = ctx.run;
  const action = input['action'];
  if (!(ALL_GITHUB_ACTIONS as readonly unknown[]).includes(action))
    return fail(`unknown action ${JSON.stringify(action)}; use one of ${ALL_GITHUB_ACTIONS.join(', ')}`);
  if (!allowed.includes(action as GitHubAction)) {
    return fail(
      `${String(action)} is not allowed in a ${ctx.stepKind} step (allowed: ${allowed.join(', ') || 'none'}). ` +
        'Comments and labels belong to the closure step; closing the issue belongs to the boundary hook.',
    );
  }
  const safe = (text: string): string => backend.redact(text);
  try {
    switch (action as GitHubAction) {
      case 'issue_view': {
        const n = input['number'] ?? issue;
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return fail('"number" must be an issue number');
        const found = await backend.readIssue(n);
        const text = [
          `Issue #${found.number} (${found.state}): ${found.title}`,
          `Labels: ${found.labels.join(', ') || '(none)'}`,
          '',
          found.body,
        ].join('\n');
        return {
          content: (await truncateToolOutput(safe(text), ctx.limits.maxOutputChars, ctx.store, label)).text,
          isError: false,
        };
      }
      case 'pr_view': {
        const n = input['number'];
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
          return fail('"number" must be a pull request number');
        const { pull, text } = await backend.readPullRequest(n);
        const view = [
          `Pull request #${pull.number} (${pull.state}): ${pull.title}`,
          `Labels: ${pull.labels.join(', ') || '(none)'}`,
          '',
          text,
        ].join('\n');
        return {
          content: (await truncateToolOutput(safe(view), ctx.limits.maxOutputChars, ctx.store, label)).text,
          isError: false,
        };
      }
      case 'comment': {
        const body = input['body'];
        if (typeof body !== 'string' || body.trim() === '') return fail('"body" must be the comment text');
        if (body.length > MAX_COMMENT_CHARS) return fail(`a comment holds at most ${MAX_COMMENT_CHARS} characters`);
        if (input['number'] !== undefined && input['number'] !== issue)
          return fail(`comments go only to this run's issue #${issue}`);
        // The same text from a retried step is found, not posted twice.
        const key = `${workflowId}:tool-comment:${createHash('sha256').update(body).digest('hex').slice(0, 16)}`;
        const outcome = await backend.comment(issue, safe(body), key);
        return {
          content:
            outcome === 'added' ? `Commented on issue #${issue}.` : `That comment is already on issue #${issue}.`,
          isError: false,
        };
      }
      case 'set_labels': {
        const add = strings(input['add']);
        const remove = strings(input['remove']);
        if (add === undefined || remove === undefined) return fail('"add" and "remove" must be arrays of label names');
        if (add.length + remove.length === 0) return fail('name at least one label to add or remove');
        if (input['number'] !== undefined && input['number'] !== issue)
          return fail(`labels are set only on this run's issue #${issue}`);
        const undeclared = [...add, ...remove].filter((l) => !backend.declaredLabels.includes(l));
        if (undeclared.length > 0) {
          return fail(
            `label(s) ${undeclared.join(', ')} are not declared by the agent (declared: ${backend.declaredLabels.join(', ') || 'none'}; runner.integrations.github.labels)`,
          );
        }
        const labels = await backend.relabel(issue, { add, remove });
        return { content: `Labels of issue #${issue}: ${labels.join(', ') || '(none)'}`, isError: false };
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const message = AgentError.isInstance(error)
      ? error.describe()
      : error instanceof Error
        ? error.message
        : String(error);
    ctx.log('warn', 'github tool failed', { action: String(action), error: safe(message).slice(0, 300) });
    return fail(safe(message));
  }
  return fail('unreachable');
}
