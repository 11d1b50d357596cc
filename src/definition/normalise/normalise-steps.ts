/**
 * Registry steps → draft StepDefinitions with defaults applied: edition 'default',
 * uvVariables without `uv-`, handoffFields [], failFast true, readOnly false, and a
 * `repeat` transition to the step itself when `repeat` is allowed but not routed.
 * The step kind is taken from `stepKind` or inferred from `c2`; checks come later.
 */
import type { StepDefinition, TransitionRule } from '../../contracts/definition.js';
import { inferStepKind, isIntent, isStepKind, type Intent } from '../../contracts/intents.js';
import type { DraftStep } from '../load/load-context.js';
import { DEFAULT_EDITION } from '../c3l/c3l-path.js';
import { stripUvPrefix } from '../c3l/substitute-uv.js';
import { pointer } from '../problem.js';
import type { RawRegistryFile, RawStep, RawTransition } from '../load/raw-files.js';

export function normaliseSteps(registry: RawRegistryFile): DraftStep[] {
  return Object.entries(registry.steps).map(([key, raw]) => ({
    key,
    pointer: pointer('steps', key),
    raw,
    stepKind: isStepKind(raw.stepKind) ? raw.stepKind : inferStepKind(raw.c2),
    definition: normaliseStep(key, raw),
  }));
}

function normaliseStep(key: string, raw: RawStep): Omit<StepDefinition, 'stepKind'> {
  const gate = raw.structuredGate;
  const allowedIntents = gate.allowedIntents.filter(isIntent);
  const transitions: Partial<Record<Intent, TransitionRule>> = {};
  for (const [intent, rule] of Object.entries(raw.transitions)) {
    if (isIntent(intent)) transitions[intent] = toRule(rule);
  }
  // A step may repeat itself without spelling it out (seed 004 §3: repeat → same step).
  if (allowedIntents.includes('repeat') && transitions.repeat === undefined) transitions.repeat = { target: key };
  return {
    stepId: key,
    name: raw.name ?? key,
    c2: raw.c2,
    c3: raw.c3,
    edition: raw.edition ?? DEFAULT_EDITION,
    ...(raw.adaptation === undefined ? {} : { adaptation: raw.adaptation }),
    uvVariables: (raw.uvVariables ?? []).map(stripUvPrefix),
    outputSchemaRef: { file: raw.outputSchemaRef.file, schema: raw.outputSchemaRef.schema },
    structuredGate: {
      allowedIntents,
      intentField: gate.intentField,
      intentSchemaRef: gate.intentSchemaRef,
      ...(gate.targetField === undefined ? {} : { targetField: gate.targetField }),
      handoffFields: gate.handoffFields ?? [],
      failFast: gate.failFast ?? true,
      ...(isIntent(gate.fallbackIntent) ? { fallbackIntent: gate.fallbackIntent } : {}),
    },
    transitions,
    readOnly: raw.readOnly ?? false,
  };
}

/** Shape problems (both or neither form) are reported by the transition rules. */
function toRule(raw: RawTransition): TransitionRule {
  if (raw.condition !== undefined) return { condition: raw.condition, targets: { ...(raw.targets ?? {}) } };
  return { target: raw.target ?? null };
}

/** Every step id a rule can lead to (null = end of flow is not a step). */
export function ruleTargets(rule: TransitionRule): string[] {
  const all = 'target' in rule ? [rule.target] : Object.values(rule.targets);
  return all.filter((t): t is string => typeof t === 'string');
}
