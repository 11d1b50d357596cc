/**
 * The models an agent names (`runner.model.model`, `runner.flow.defaultModel`, a step's
 * `model`) against the price table (contracts/models.ts). An unknown id is a warning, not
 * an error: a model newer than the table still runs, but its USD cost is computed as the
 * most expensive known model's, so the warning says so. `effort` on a model that refuses it
 * and `thinking: disabled` on a model whose thinking is always on are warned about too.
 */
import { knownModel } from '../../contracts/models.js';
import { Thinking } from '../../contracts/model-options.js';
import { pointer, warning, type Problem } from '../problem.js';
import type { LoadContext } from '../load/load-context.js';
import type { DefinitionRule } from './rule.js';

interface Use {
  readonly model: string;
  readonly file: string;
  readonly pointer: string;
}

function uses(ctx: LoadContext): Use[] {
  const runner = ctx.agent.runner;
  const agentPointer =
    runner.model?.model !== undefined
      ? pointer('runner', 'model', 'model')
      : runner.flow?.defaultModel !== undefined
        ? pointer('runner', 'flow', 'defaultModel')
        : undefined;
  const agentUse =
    agentPointer === undefined ? [] : [{ model: ctx.settings.model.model, file: ctx.agentFile, pointer: agentPointer }];
  const stepUses = ctx.steps.flatMap((s) =>
    s.definition.model === undefined
      ? []
      : [{ model: s.definition.model, file: ctx.registryFile, pointer: `${s.pointer}/model` }],
  );
  return [...agentUse, ...stepUses];
}

export const modelsKnown: DefinitionRule = (ctx) => {
  const { effort, thinking } = ctx.settings.model;
  const problems: Problem[] = [];
  for (const use of uses(ctx)) {
    const entry = knownModel(use.model);
    if (entry === undefined) {
      problems.push(
        warning({
          code: 'MODEL_UNKNOWN',
          file: use.file,
          pointer: use.pointer,
          rule: 'model-priced',
          expected: 'a model id or alias of the price table (docs/model-and-cost.md)',
          message: `model '${use.model}' is not in the price table: its USD cost is computed as the most expensive known model's`,
        }),
      );
      continue;
    }
    if (effort !== undefined && entry.effort === false) {
      problems.push(
        warning({
          code: 'EFFORT_UNSUPPORTED',
          file: use.file,
          pointer: use.pointer,
          rule: 'effort-supported',
          expected: 'a model that accepts output_config.effort, or no runner.model.effort',
          message: `model '${use.model}' does not accept effort '${effort}'; the API will refuse its requests`,
        }),
      );
    }
    if (thinking === Thinking.Disabled && entry.thinkingAlwaysOn === true) {
      problems.push(
        warning({
          code: 'THINKING_ALWAYS_ON',
          file: use.file,
          pointer: use.pointer,
          rule: 'thinking-can-be-disabled',
          expected: "runner.model.thinking 'adaptive' or unset for this model",
          message: `model '${use.model}' always thinks; the API refuses thinking 'disabled'`,
        }),
      );
    }
  }
  return problems;
};
