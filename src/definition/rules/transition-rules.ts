/**
 * Rules on each step's transitions: well-formed rules, targets that exist, and a route
 * for every allowed intent. `closing` and `abort` need none (they end the flow); a
 * missing `repeat` was already defaulted to the step itself; `jump` may instead name
 * its target through `structuredGate.targetField`.
 */
import type { Intent } from '../../contracts/intents.js';
import { escapePointerSegment, problem, warning, type Problem } from '../problem.js';
import type { DraftStep, LoadContext } from '../load/load-context.js';
import type { DefinitionRule } from './rule.js';

const ENDING_INTENTS: readonly Intent[] = ['closing', 'abort'];

export const transitionShape: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const step of ctx.steps) {
    for (const [intent, raw] of Object.entries(step.raw.transitions ?? {})) {
      const at = `${step.pointer}/transitions/${escapePointerSegment(intent)}`;
      const plain = 'target' in raw;
      const conditional = raw.condition !== undefined || raw.targets !== undefined;
      if (plain === conditional) {
        problems.push(
          problem({
            code: 'TRANSITION_SHAPE',
            file: ctx.registryFile,
            pointer: at,
            rule: 'transition-shape',
            expected: '{target} or {condition, targets}',
            message: `transition '${intent}' of step '${step.key}' must have either 'target' or 'condition' + 'targets'`,
          }),
        );
      } else if (conditional && (raw.condition === undefined || raw.targets === undefined)) {
        problems.push(
          problem({
            code: 'TRANSITION_SHAPE',
            file: ctx.registryFile,
            pointer: at,
            rule: 'transition-shape',
            expected: 'both condition and targets',
            message: `conditional transition '${intent}' of step '${step.key}' needs both 'condition' and 'targets'`,
          }),
        );
      } else if (conditional && raw.targets !== undefined && !Object.hasOwn(raw.targets, 'default')) {
        problems.push(
          problem({
            code: 'TRANSITION_DEFAULT_MISSING',
            file: ctx.registryFile,
            pointer: `${at}/targets`,
            rule: 'conditional-transition-default',
            expected: "a 'default' target",
            message: `conditional transition '${intent}' of step '${step.key}' has no default target`,
          }),
        );
      }
    }
  }
  return problems;
};

export const transitionTargetsExist: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const step of ctx.steps) {
    for (const [intent, raw] of Object.entries(step.raw.transitions ?? {})) {
      const at = `${step.pointer}/transitions/${escapePointerSegment(intent)}`;
      const targets: Array<[string, string | null | undefined]> =
        'target' in raw
          ? [[`${at}/target`, raw.target]]
          : Object.entries(raw.targets ?? {}).map(([value, t]) => [`${at}/targets/${escapePointerSegment(value)}`, t]);
      for (const [pointer, target] of targets) {
        if (typeof target === 'string' && !ctx.stepIds.has(target))
          problems.push(unknownTarget(ctx, pointer, step.key, intent, target));
      }
    }
  }
  return problems;
};

function unknownTarget(ctx: LoadContext, pointer: string, stepKey: string, intent: string, target: string): Problem {
  return problem({
    code: 'UNKNOWN_TRANSITION_TARGET',
    file: ctx.registryFile,
    pointer,
    rule: 'transition-targets-exist',
    expected: 'a step id of this registry or null',
    message: `transition '${intent}' of step '${stepKey}' leads to unknown step '${target}'`,
  });
}

export const allowedIntentsRouted: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const step of ctx.steps) {
    for (const intent of step.definition.structuredGate.allowedIntents) {
      if (ENDING_INTENTS.includes(intent) || step.definition.transitions[intent] !== undefined) continue;
      if (intent === 'jump' && step.definition.structuredGate.targetField !== undefined) continue;
      problems.push(
        problem({
          code: 'TRANSITION_MISSING',
          file: ctx.registryFile,
          pointer: `${step.pointer}/transitions/${intent}`,
          rule: 'allowed-intents-routed',
          expected: `a transition for '${intent}'${intent === 'jump' ? ' (or structuredGate.targetField)' : ''}`,
          message: `step '${step.key}' allows '${intent}' but has no transition for it`,
        }),
      );
    }
  }
  return problems;
};

/** Routes for intents the gate never lets through are dead configuration. */
export const deadTransitions: DefinitionRule = (ctx) =>
  ctx.steps.flatMap((step) =>
    Object.keys(step.raw.transitions ?? {})
      .filter((intent) => !(step.definition.structuredGate.allowedIntents as readonly string[]).includes(intent))
      .map((intent) =>
        warning({
          code: 'TRANSITION_UNUSED',
          file: ctx.registryFile,
          pointer: `${step.pointer}/transitions/${escapePointerSegment(intent)}`,
          rule: 'transitions-for-allowed-intents',
          expected: `an intent in allowedIntents (${step.definition.structuredGate.allowedIntents.join(', ')})`,
          message: `transition '${intent}' of step '${step.key}' can never be taken`,
        }),
      ),
  );

/** Loop safety (docs/concepts.md#intents): closing on a closure step goes to the flow end. */
export const closingEndsFlow: DefinitionRule = (ctx) =>
  ctx.steps.filter(closingLeadsSomewhere).map((step) =>
    warning({
      code: 'CLOSING_NOT_END',
      file: ctx.registryFile,
      pointer: `${step.pointer}/transitions/closing`,
      rule: 'closing-ends-flow',
      expected: '{ "target": null }',
      message: `closing on step '${step.key}' ends the flow; its transition target is ignored`,
    }),
  );

function closingLeadsSomewhere(step: DraftStep): boolean {
  const rule = step.definition.transitions.closing;
  return rule !== undefined && !('target' in rule && rule.target === null);
}
