/**
 * The variables a step prompt can use (`{uv-name}`), from four channels: agent
 * parameters, runtime counters, the issue, and StepContext handoffs. Pure.
 */
import type { IssueSnapshot } from '../../contracts/activities.js';
import { toUvVariables, type StepContext } from '../run/state/step-context.js';

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
 * The issue as data: number, title, labels and body. The step query quotes it once,
 * inside delimiters whose closing tag it escapes (connection/model/request-builder.ts),
 * as its own block of the first user message: part of every turn's cached prefix.
 */
export function formatIssueContext(issue: IssueSnapshot): string {
  return [
    `Issue #${issue.number}: ${issue.title}`,
    `Labels: ${issue.labels.join(', ') || '(none)'}`,
    '',
    issue.body,
  ].join('\n');
}
