/**
 * StepGateInterpreter (docs/concepts.md#gate): reads intent, jump target and handoff out of a
 * step's structured output as the step's `structuredGate` declares. Pure. Before the gate
 * reads the answer, its stepId is normalised (normaliseStepId, below).
 *
 * A missing or disallowed intent is a spec violation: with `failFast` (the default)
 * the run stops with FAILED_STEP_ROUTING; with `failFast: false` the fallback intent
 * is used and a `[StepFlow][SpecViolation]` warning is returned for the log.
 */
import type { StepDefinition } from '../../contracts/definition.js';
import { isIntent, type Intent } from '../../contracts/intents.js';
import type { JsonObject, JsonValue } from '../../contracts/json.js';

/** Synonyms models use for canonical intents (kept from upstream for compatibility). */
const INTENT_ALIASES: Readonly<Record<string, Intent>> = {
  continue: 'next',
  pass: 'next',
  retry: 'repeat',
  wait: 'repeat',
  fail: 'repeat',
  done: 'closing',
  finished: 'closing',
};

export type GateResult =
  | {
      readonly ok: true;
      readonly intent: Intent;
      readonly target?: string;
      readonly handoff: Readonly<Record<string, JsonValue>>;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

function normaliseIntent(raw: JsonValue | undefined): Intent | undefined {
  if (typeof raw !== 'string') return undefined;
  const lowered = raw.trim().toLowerCase();
  if (isIntent(lowered)) return lowered;
  return INTENT_ALIASES[lowered];
}

function extractHandoff(
  step: StepDefinition,
  output: JsonObject,
): { handoff: Record<string, JsonValue>; missing: string[] } {
  const handoff: Record<string, JsonValue> = {};
  const missing: string[] = [];
  for (const path of step.structuredGate.handoffFields) {
    const value = getAtPath(output, path);
    if (value === undefined) missing.push(path);
    else handoff[lastSegment(path)] = value;
  }
  return { handoff, missing };
}

export function interpretGate(step: StepDefinition, output: JsonObject): GateResult {
  const gate = step.structuredGate;
  const raw = getAtPath(output, gate.intentField);
  const intent = normaliseIntent(raw);
  const allowed = intent !== undefined && gate.allowedIntents.includes(intent);
  const warnings: string[] = [];
  let chosen: Intent;
  if (intent !== undefined && allowed) {
    chosen = intent;
  } else {
    const problem =
      raw === undefined
        ? `no intent at "${gate.intentField}"`
        : `intent ${JSON.stringify(raw)} is not one of [${gate.allowedIntents.join(', ')}]`;
    if (gate.failFast) {
      return { ok: false, reason: `step "${step.stepId}": ${problem} (structuredGate.failFast is true)` };
    }
    chosen =
      gate.fallbackIntent ?? (gate.allowedIntents.includes('next') ? 'next' : (gate.allowedIntents[0] ?? 'repeat'));
    warnings.push(`[StepFlow][SpecViolation] step "${step.stepId}": ${problem}; using fallback intent "${chosen}"`);
  }
  const targetValue = gate.targetField === undefined ? undefined : getAtPath(output, gate.targetField);
  const { handoff, missing } = extractHandoff(step, output);
  for (const path of missing)
    warnings.push(`[StepFlow] step "${step.stepId}": handoff field "${path}" missing in output`);
  return {
    ok: true,
    intent: chosen,
    ...(typeof targetValue === 'string' && targetValue.length > 0 ? { target: targetValue } : {}),
    handoff,
    warnings,
  };
}

/**
 * stepId normalisation (docs/concepts.md#gate): the Flow owns the canonical stepId. A model
 * that reports another one is corrected, and the correction is logged.
 */
export interface NormalisedOutput {
  readonly output: JsonObject;
  /** The log line when a correction happened. */
  readonly correction?: string;
}

export function normaliseStepId(output: JsonObject, expectedStepId: string): NormalisedOutput {
  const actual = output['stepId'];
  if (typeof actual !== 'string' || actual === expectedStepId) return { output };
  return {
    output: { ...output, stepId: expectedStepId },
    correction: `[StepFlow] stepId corrected: "${actual}" -> "${expectedStepId}" (Flow owns canonical stepId)`,
  };
}

/** Dot-path access into the answer (`next_action.action`, `items.0.name`): numeric segments index arrays. */
function getAtPath(value: JsonValue | undefined, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const segment of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      const index = Number(segment);
      current = Number.isInteger(index) ? current[index] : undefined;
    } else if (typeof current === 'object') {
      current = Object.prototype.hasOwnProperty.call(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

function lastSegment(path: string): string {
  const parts = path.split('.');
  return parts[parts.length - 1] ?? path;
}
