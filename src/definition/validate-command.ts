/**
 * Core of `npm run validate`: loads the definition (whose rules include the check that
 * every `{uv-x}` a reachable prompt uses will have a value, prompt-variable-check.ts:
 * the same check a run's load makes), then proves every step schema and every prompt
 * file resolves. Exit 2 lists every problem (errors and warnings, one per line); exit 0
 * prints a short summary with the transition graph and the warnings. The CLI only prints.
 */
import { AgentError } from '../contracts/errors.js';
import type { AgentDefinition, StepDefinition, TransitionRule } from '../contracts/definition.js';
import { stepPromptInput, stepSchemaInput, systemPromptInput } from '../contracts/step-inputs.js';
import { loadAgentDefinition } from './load/load-agent-definition.js';
import { formatProblem, type Problem } from './problem.js';
import { loadPromptTemplate } from './c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from './schema/resolve-step-schema.js';
import { SchemaFileCache } from './schema/schema-file-cache.js';

/** What `validate --json` prints for one checked file or directory. */
export interface ValidateReport {
  readonly kind: 'agent' | 'workflow';
  /** The agent directory or the workflow file. */
  readonly path: string;
  readonly valid: boolean;
  /** Problems, or (for a step schema or prompt that does not resolve) a description. */
  readonly errors: readonly (Problem | string)[];
  readonly warnings: readonly Problem[];
  /** The definition's content hash when valid. */
  readonly hash?: string;
}

export interface ValidateOutcome {
  readonly exitCode: 0 | 2;
  readonly text: string;
  readonly report: ValidateReport;
}

export async function runValidate(agentDir: string): Promise<ValidateOutcome> {
  const result = await loadAgentDefinition(agentDir);
  if (!result.ok) return failure(agentDir, result.problems, result.warnings);
  const definition = result.definition;
  const proofs = await proveResolution(definition);
  if (proofs.failures.length > 0) return failure(agentDir, proofs.failures, result.warnings);
  return {
    exitCode: 0,
    text: summary(definition, proofs, result.warnings),
    report: {
      kind: 'agent',
      path: agentDir,
      valid: true,
      errors: [],
      warnings: result.warnings,
      hash: definition.hash,
    },
  };
}

export interface Proofs {
  readonly schemas: number;
  readonly prompts: number;
  readonly failures: string[];
}

/** Resolves every step schema and step/system prompt (without variables): what a run will need. */
export async function proveResolution(definition: AgentDefinition): Promise<Proofs> {
  const files = new SchemaFileCache(definition.schemasDir);
  const failures: string[] = [];
  const steps = Object.values(definition.steps);
  const attempt = async (what: Promise<unknown>): Promise<boolean> => {
    try {
      await what;
      return true;
    } catch (error) {
      if (!AgentError.isInstance(error)) throw error;
      failures.push(error.describe());
      return false;
    }
  };
  const schemaOk = await Promise.all(
    steps.map((s) => attempt(resolveStepSchema(stepSchemaInput(definition, s), { files }))),
  );
  // Templates only: no variables are needed (or checked) to prove a file resolves.
  const promptInputs = [
    systemPromptInput(definition, 0, ''),
    ...steps
      .filter((s) => s.runner === undefined)
      .map((s) => ({ ...stepPromptInput(definition, s, {}), required: [] })),
  ];
  const promptOk = await Promise.all(promptInputs.map((input) => attempt(loadPromptTemplate(input))));
  return { schemas: schemaOk.filter(Boolean).length, prompts: promptOk.filter(Boolean).length, failures };
}

function failure(
  agentDir: string,
  errors: readonly (Problem | string)[],
  warnings: readonly Problem[],
): ValidateOutcome {
  const lines = [
    `Agent definition in ${agentDir} is invalid: ${errors.length} error(s), ${warnings.length} warning(s).`,
    ...errors.map((e) => `error   ${typeof e === 'string' ? e : formatProblem(e)}`),
    ...warnings.map((w) => `warning ${formatProblem(w)}`),
  ];
  return {
    exitCode: 2,
    text: lines.join('\n'),
    report: { kind: 'agent', path: agentDir, valid: false, errors, warnings },
  };
}

function summary(definition: AgentDefinition, proofs: Proofs, warnings: readonly Problem[]): string {
  const steps = Object.values(definition.steps);
  return [
    `Agent '${definition.name}' is valid (definition ${definition.hash.slice(0, 12)}).`,
    `Steps: ${steps.length}; entry step: ${definition.entryStep}; verdict: ${definition.verdict.type}; max iterations: ${definition.maxIterations}.`,
    'Transitions:',
    ...steps.map((s) => `  ${s.stepId} (${s.stepKind}${s.runner ? `, runner: ${s.runner.command}` : ''}) ${edges(s)}`),
    ...Object.values(definition.sections ?? {}).map((s) => `  ${s.stepId} (prompt fragment, as {uv-${s.variable}})`),
    `Resolved ${proofs.prompts} prompt(s) (including the system prompt) and ${proofs.schemas} step schema(s).`,
    ...(warnings.length === 0
      ? ['No warnings.']
      : [`${warnings.length} warning(s):`, ...warnings.map((w) => `warning ${formatProblem(w)}`)]),
  ].join('\n');
}

function edges(step: StepDefinition): string {
  return step.structuredGate.allowedIntents
    .map((intent) => {
      const rule = step.transitions[intent];
      if (rule !== undefined) return `--${intent}--> ${describeRule(rule)}`;
      if (intent === 'jump') return `--jump--> <${step.structuredGate.targetField ?? '?'}>`;
      return `--${intent}--> (end)`;
    })
    .join(', ');
}

function describeRule(rule: TransitionRule): string {
  if ('target' in rule) return rule.target ?? '(end)';
  const cases = Object.entries(rule.targets).map(([value, target]) => `${value}→${target ?? '(end)'}`);
  return `[${rule.condition}: ${cases.join(', ')}]`;
}
