/**
 * Rules on the step graph: every step reachable from some entry step (else a
 * warning), and a closure step reachable from the chosen entry (otherwise the run can
 * never complete: an error). The walk itself is reachable-steps.ts.
 */
import type { LoadContext } from '../load/load-context.js';
import { problem, warning } from '../problem.js';
import { reachableSteps, type RoutedStep } from '../reachable-steps.js';
import type { DefinitionRule } from './rule.js';

/** The registry's flow steps as the graph walk reads them. */
export function routedSteps(ctx: LoadContext): Map<string, RoutedStep> {
  return new Map(ctx.steps.map((s) => [s.key, { ...s.definition, stepKind: s.stepKind }]));
}

export function reachableFrom(ctx: LoadContext, entry: string): Set<string> {
  return reachableSteps(routedSteps(ctx), entry);
}

/** Every declared entry: the chosen one, each `entryStepMapping` target and `entryStep`. */
function allEntries(ctx: LoadContext): string[] {
  const declared = [
    ...(ctx.entry ? [ctx.entry.stepId] : []),
    ...Object.values(ctx.registry.entryStepMapping ?? {}),
    ...(ctx.registry.entryStep === undefined ? [] : [ctx.registry.entryStep]),
  ];
  return [...new Set(declared)].filter((id) => ctx.stepIds.has(id));
}

/**
 * A step no entry reaches is dead weight, not a broken agent: a warning, as upstream
 * (an agent with `entryStepMapping` keeps one flow per verdict type in one registry).
 */
export const stepsReachable: DefinitionRule = (ctx) => {
  if (!ctx.entry) return [];
  const entries = allEntries(ctx);
  const reachable = new Set(entries.flatMap((e) => [...reachableFrom(ctx, e)]));
  return ctx.steps
    .filter((s) => !reachable.has(s.key) && !s.key.startsWith('section.'))
    .map((s) =>
      warning({
        code: 'UNREACHABLE_STEP',
        file: ctx.registryFile,
        pointer: s.pointer,
        rule: 'steps-reachable',
        expected: `a path of transitions from an entry step (${entries.map((e) => `'${e}'`).join(', ')})`,
        message: `step '${s.key}' cannot be reached from any entry step`,
      }),
    );
};

export const closureReachable: DefinitionRule = (ctx) => {
  if (!ctx.entry) return [];
  const reachable = reachableFrom(ctx, ctx.entry.stepId);
  if (ctx.steps.some((s) => reachable.has(s.key) && s.stepKind === 'closure')) return [];
  return [
    problem({
      code: 'NO_REACHABLE_CLOSURE',
      file: ctx.registryFile,
      pointer: ctx.entry.pointer,
      rule: 'closure-reachable',
      expected: 'a closure step reachable from the entry step',
      message: `no closure step can be reached from entry step '${ctx.entry.stepId}': the run could never complete`,
    }),
  ];
};
