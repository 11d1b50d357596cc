/**
 * The inputs of the prompt and schema activities, built in one place: the workflow and
 * the benchmark's in-process baseline (scripts/bench) must ask for exactly the same.
 */
import type { ResolvePromptInput, ResolveSchemaInput } from './activities.js';
import type { AgentDefinition, DefinitionSnapshotRef, StepDefinition } from './definition.js';

/**
 * The system prompt: identical for every step of a run (a cached prefix). The
 * repository's own instructions (AGENTS.md, CLAUDE.md) are `{uv-repo_instructions}`,
 * empty when it has none.
 */
export function systemPromptInput(
  definition: AgentDefinition,
  issue: number,
  branch: string,
  repoInstructions = '',
): ResolvePromptInput {
  return {
    agentDir: definition.agentDir,
    promptsDir: definition.promptsDir,
    kind: 'system',
    c1: definition.c1,
    systemPromptPath: definition.systemPromptPath,
    required: [],
    variables: {
      agent_name: definition.name,
      issue_number: String(issue),
      branch,
      repo_instructions: repoInstructions,
    },
    ...snapshotOf(definition),
  };
}

/** The run's definition snapshot, for every input that reads a definition file. */
export function snapshotOf(definition: AgentDefinition): { snapshot?: DefinitionSnapshotRef } {
  return definition.snapshot === undefined ? {} : { snapshot: definition.snapshot };
}

export function stepPromptInput(
  definition: AgentDefinition,
  step: StepDefinition,
  variables: Readonly<Record<string, string>>,
): ResolvePromptInput {
  return {
    agentDir: definition.agentDir,
    promptsDir: definition.promptsDir,
    kind: 'step',
    c1: definition.c1,
    stepId: step.stepId,
    c2: step.c2,
    c3: step.c3,
    edition: step.edition,
    ...adaptationOf(definition, step),
    required: step.uvVariables,
    variables,
    ...(definition.sections === undefined ? {} : { sections: Object.values(definition.sections) }),
    ...snapshotOf(definition),
  };
}

/**
 * The step's own adaptation; else, for a closure step, the one `defaultClosureAction`
 * selects (upstream closure-adapter: `f_<edition>_label-only.md`, falling back to
 * `f_<edition>.md` when the agent ships no such variant).
 */
export function adaptationOf(
  definition: Pick<AgentDefinition, 'closureAdaptation'>,
  step: Pick<StepDefinition, 'adaptation'> & { readonly stepKind?: StepDefinition['stepKind'] | undefined },
): { adaptation?: string } {
  if (step.adaptation !== undefined) return { adaptation: step.adaptation };
  if (step.stepKind === 'closure' && definition.closureAdaptation !== undefined) {
    return { adaptation: definition.closureAdaptation };
  }
  return {};
}

export function stepSchemaInput(definition: AgentDefinition, step: StepDefinition): ResolveSchemaInput {
  return {
    schemasDir: definition.schemasDir,
    stepId: step.stepId,
    file: step.outputSchemaRef.file,
    schema: step.outputSchemaRef.schema,
    ...(step.outputSchemaRef.inline === undefined ? {} : { inline: step.outputSchemaRef.inline }),
    ...snapshotOf(definition),
  };
}

/** Operator guidance adds to a step prompt (the workflow and the step activity both use this). */
export function withOperatorGuidance(text: string, guidance: string | undefined): string {
  return guidance === undefined ? text : `${text}\n\n<operator_guidance>\n${guidance}\n</operator_guidance>`;
}

/** A verdict's retry prompt adds to the step's own prompt (the workflow and the step activity both use this). */
export function withRetryAddendum(text: string, addendum: string | undefined): string {
  return addendum === undefined ? text : `${text}\n\n${addendum}`;
}
