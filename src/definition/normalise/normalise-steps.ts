/**
 * Registry steps → draft StepDefinitions with defaults applied: edition 'default',
 * uvVariables without `uv-`, handoffFields [], failFast true, readOnly by step kind
 * (contracts/step-kind-tools: verification is read-only unless the step says otherwise), and a
 * `repeat` transition to the step itself when `repeat` is allowed but not routed.
 * The step kind is taken from `stepKind` or inferred from `c2`; checks come later.
 *
 * `section.*` steps are prompt fragments, not flow steps: they are set apart. A step
 * without a structuredGate (ungated closure, runner step) gets the built-in closing
 * gate and schema; step-shape rules decide which steps may go without.
 */
import type { SectionDefinition, StepDefinition, StepInputSpec, TransitionRule } from '../../contracts/definition.js';
import { inferStepKind, isIntent, isStepKind, type Intent, type StepKind } from '../../contracts/intents.js';
import { stepReadOnly } from '../../contracts/step-kind-tools.js';
import type { DraftStep } from '../load/load-context.js';
import { DEFAULT_EDITION } from '../c3l/c3l-path.js';
import { stripUvPrefix } from '../c3l/substitute-uv.js';
import { pointer } from '../problem.js';
import type { RawGate, RawRegistryFile, RawStep, RawTransition } from '../load/raw-files.js';
import {
  BUILTIN_CLOSURE_SCHEMA,
  BUILTIN_CLOSURE_SCHEMA_NAME,
  BUILTIN_INTENT_FIELD,
  BUILTIN_INTENT_POINTER,
  BUILTIN_SCHEMA_FILE,
} from '../schema/builtin-step-schema.js';
import { modelId } from './model-alias.js';

export const SECTION_PREFIX = 'section.';
/** Upstream subprocess default (agents/runner/subprocess-runner.ts). */
export const DEFAULT_RUNNER_TIMEOUT_MS = 30_000;

export interface DraftSection {
  readonly key: string;
  readonly pointer: string;
  readonly definition: SectionDefinition;
}

export function isSectionKey(key: string): boolean {
  return key.startsWith(SECTION_PREFIX);
}

export function normaliseSteps(registry: RawRegistryFile): DraftStep[] {
  return Object.entries(registry.steps)
    .filter(([key]) => !isSectionKey(key))
    .map(([key, raw]) => {
      const stepKind = isStepKind(raw.stepKind) ? raw.stepKind : inferStepKind(raw.c2);
      return { key, pointer: pointer('steps', key), raw, stepKind, definition: normaliseStep(key, raw, stepKind) };
    });
}

export function normaliseSections(registry: RawRegistryFile): DraftSection[] {
  return Object.entries(registry.steps)
    .filter(([key]) => isSectionKey(key))
    .map(([key, raw]) => ({
      key,
      pointer: pointer('steps', key),
      definition: {
        stepId: key,
        c2: raw.c2,
        c3: raw.c3,
        edition: raw.edition ?? DEFAULT_EDITION,
        ...(raw.adaptation === undefined ? {} : { adaptation: raw.adaptation }),
        uvVariables: strings(raw.uvVariables).map(stripUvPrefix),
        variable: sectionVariable(key),
      },
    }));
}

/** `section.projectcontext` → `section_projectcontext` (used as `{uv-section_projectcontext}`). */
export function sectionVariable(key: string): string {
  return key.replace(/\./g, '_');
}

const BUILTIN_GATE: RawGate = {
  allowedIntents: ['closing'],
  intentField: BUILTIN_INTENT_FIELD,
  intentSchemaRef: BUILTIN_INTENT_POINTER,
};

function normaliseStep(key: string, raw: RawStep, kind: StepKind | undefined): Omit<StepDefinition, 'stepKind'> {
  const gated = raw.structuredGate !== undefined;
  const gate = raw.structuredGate ?? BUILTIN_GATE;
  const allowedIntents = strings(gate.allowedIntents).filter(isIntent);
  const rawTransitions = raw.transitions ?? (gated ? {} : { closing: { target: null } });
  const transitions: Partial<Record<Intent, TransitionRule>> = {};
  for (const [intent, rule] of Object.entries(rawTransitions)) {
    if (isIntent(intent) && typeof rule === 'object' && rule !== null) transitions[intent] = toRule(rule);
  }
  // A step may repeat itself without spelling it out (docs/concepts.md#intents: repeat → same step).
  if (allowedIntents.includes('repeat') && transitions.repeat === undefined) transitions.repeat = { target: key };
  const schemaRef = raw.outputSchemaRef ?? {
    file: BUILTIN_SCHEMA_FILE,
    schema: BUILTIN_CLOSURE_SCHEMA_NAME,
    inline: BUILTIN_CLOSURE_SCHEMA,
  };
  return {
    stepId: key,
    name: raw.name ?? key,
    c2: raw.c2,
    c3: raw.c3,
    edition: raw.edition ?? DEFAULT_EDITION,
    ...(raw.adaptation === undefined ? {} : { adaptation: raw.adaptation }),
    uvVariables: strings(raw.uvVariables).map(stripUvPrefix),
    outputSchemaRef: { ...schemaRef },
    structuredGate: {
      allowedIntents,
      intentField: gate.intentField,
      intentSchemaRef: gate.intentSchemaRef,
      ...(gate.targetField === undefined ? {} : { targetField: gate.targetField }),
      handoffFields: strings(gate.handoffFields),
      failFast: gate.failFast ?? true,
      ...(isIntent(gate.fallbackIntent) ? { fallbackIntent: gate.fallbackIntent } : {}),
    },
    transitions,
    // Step readOnly, else step permissionMode (`plan` is read-only), else the kind's default.
    // A step without a kind is an error reported by the rules; `work` only fills the draft.
    readOnly: stepReadOnly(kind ?? 'work', raw.readOnly, raw.permissionMode),
    gated,
    ...(raw.runner === undefined
      ? {}
      : {
          runner: {
            command: raw.runner.command,
            args: [...(raw.runner.args ?? [])],
            timeoutMs: raw.runner.timeout ?? DEFAULT_RUNNER_TIMEOUT_MS,
          },
        }),
    ...(raw.inputs === undefined ? {} : { inputs: normaliseInputs(raw.inputs) }),
    ...(raw.model === undefined ? {} : { model: modelId(raw.model) }),
  };
}

function normaliseInputs(raw: NonNullable<RawStep['inputs']>): Record<string, StepInputSpec> {
  const out: Record<string, StepInputSpec> = {};
  for (const [name, spec] of Object.entries(raw)) {
    out[name] = {
      // Upstream code: `required` defaults to false (docs say true).
      required: spec.required ?? false,
      ...(spec.from === undefined ? {} : { from: spec.from }),
      ...(spec.default === undefined ? {} : { default: spec.default }),
    };
  }
  return out;
}

/**
 * A list of strings, or [] for anything else: a registry that failed its schema is
 * still normalised (one-pass validation), so a wrong type must not stop the rules.
 */
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
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
