/**
 * The loader's half of the prompt-variable check (prompt-variable-check.ts): run on
 * every load, so `validate`, `start-run` and the run's own loadDefinition refuse a
 * definition whose run would reach a prompt with an unbound `{uv-x}`, and all of them
 * warn about one in a step the run never reaches. Every declared agent parameter counts
 * as bound here; `start-run` checks again with the values of its run.
 */
import { promptVariableProblems } from '../prompt-variable-check.js';
import type { PromptVariableView } from '../prompt-variable-sources.js';
import type { LoadContext } from '../load/load-context.js';
import type { DefinitionRule } from './rule.js';

export const promptVariablesBound: DefinitionRule = async (ctx) => {
  // Without an entry there is no run to reach anything (UNKNOWN_ENTRY_STEP says why).
  if (ctx.entry === undefined) return [];
  return promptVariableProblems(viewOf(ctx, ctx.entry.stepId));
};

function viewOf(ctx: LoadContext, entryStep: string): PromptVariableView {
  return {
    agentDir: ctx.layout.agentDir,
    promptsDir: ctx.layout.promptsDir,
    c1: ctx.c1,
    systemPromptPath: ctx.settings.systemPromptPath,
    closureAdaptation: ctx.settings.closureAdaptation,
    parameters: ctx.settings.parameters,
    entryStep,
    verdictType: ctx.settings.verdict.type,
    steps: new Map(ctx.steps.map((s) => [s.key, { ...s.definition, stepKind: s.stepKind }])),
    sections: ctx.sections.map((s) => s.definition),
  };
}
