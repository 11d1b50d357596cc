/**
 * The variables a step prompt can use (`{uv-name}`), from four channels: agent
 * parameters, runtime counters, the issue, and StepContext handoffs. Pure.
 */
import type { IssueSnapshot } from '../contracts/activities.js';
import { toUvVariables, type StepContext } from './step-context.js';

export interface PromptVariableInput {
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly iteration: number;
  readonly maxIterations: number;
  readonly previousSummary: string;
  readonly issue: IssueSnapshot;
  readonly stepContext: StepContext;
  readonly agentName: string;
  readonly branch: string;
}

export function buildPromptVariables(input: PromptVariableInput): Record<string, string> {
  const variables: Record<string, string> = {};
  // Handoffs first: on a name clash, parameters and runtime values win (upstream rule).
  Object.assign(variables, toUvVariables(input.stepContext));
  Object.assign(variables, {
    iteration: String(input.iteration),
    max_iterations: String(input.maxIterations),
    remaining: String(Math.max(0, input.maxIterations - input.iteration)),
    completed_iterations: String(Math.max(0, input.iteration - 1)),
    previous_summary: input.previousSummary,
    issue_number: String(input.issue.number),
    issue_title: input.issue.title,
    agent_name: input.agentName,
    branch: input.branch,
  });
  for (const [key, value] of Object.entries(input.parameters)) variables[key] = String(value);
  return variables;
}

/**
 * The issue as untrusted data inside clear delimiters. It is sent as its own block of
 * the first user message so that it is part of the cached prefix of every turn.
 */
export function formatIssueContext(issue: IssueSnapshot): string {
  return [
    `Issue #${issue.number}: ${issue.title}`,
    `Labels: ${issue.labels.join(', ') || '(none)'}`,
    '<issue_body untrusted="true">',
    issue.body,
    '</issue_body>',
  ].join('\n');
}
