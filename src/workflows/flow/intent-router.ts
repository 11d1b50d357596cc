/**
 * Workflow Router (docs/concepts.md#intents): turns a step's interpreted intent into the next
 * move of the Flow loop. Pure; every intent is handled in an exhaustive switch.
 *
 * The router never ends a run successfully: `closing` hands control to the
 * Completion loop, which alone decides whether the agent is done (docs/concepts.md#completion-loop).
 */
import type { AgentDefinition, StepDefinition, TransitionRule } from '../../contracts/definition.js';
import type { Intent } from '../../contracts/intents.js';
import type { JsonValue } from '../../contracts/json.js';
import { assertNever } from '../../contracts/json.js';

export type Route =
  | { readonly kind: 'goto'; readonly stepId: string; readonly warnings: readonly string[] }
  | { readonly kind: 'closing' }
  | { readonly kind: 'abort'; readonly reason: string }
  | { readonly kind: 'error'; readonly reason: string };

export interface RouteInput {
  readonly definition: AgentDefinition;
  readonly step: StepDefinition;
  readonly intent: Intent;
  readonly target?: string;
  readonly handoff: Readonly<Record<string, JsonValue>>;
  readonly reason?: string;
}

function conditionKey(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'default';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function resolveRule(input: RouteInput, rule: TransitionRule | undefined): Route {
  const { definition, step, intent } = input;
  if (rule === undefined) {
    return { kind: 'error', reason: `step "${step.stepId}" has no transition for intent "${intent}"` };
  }
  let target: string | null | undefined;
  if ('condition' in rule) {
    const key = conditionKey(input.handoff[rule.condition]);
    target = Object.prototype.hasOwnProperty.call(rule.targets, key) ? rule.targets[key] : rule.targets['default'];
    if (target === undefined) {
      return {
        kind: 'error',
        reason: `step "${step.stepId}": conditional transition "${intent}" has no target for ${rule.condition}=${key} and no default`,
      };
    }
  } else {
    target = rule.target;
  }
  if (target === null) {
    return {
      kind: 'error',
      reason: `step "${step.stepId}": intent "${intent}" ends the flow without a closure step's "closing"; only the Completion loop can end a run`,
    };
  }
  if (definition.steps[target] === undefined) {
    return {
      kind: 'error',
      reason: `step "${step.stepId}": transition "${intent}" points at unknown step "${target}"`,
    };
  }
  const warnings =
    intent === 'handoff' && step.c2 === 'initial'
      ? [
          `[StepFlow] Handoff from initial step '${step.stepId}'. Consider using 'next' to proceed to continuation steps first (docs/concepts.md, Handoff).`,
        ]
      : [];
  return { kind: 'goto', stepId: target, warnings };
}

export function routeIntent(input: RouteInput): Route {
  const { step, intent, definition } = input;
  switch (intent) {
    case 'abort':
      return { kind: 'abort', reason: input.reason ?? `step "${step.stepId}" declared abort` };
    case 'closing':
      return step.stepKind === 'closure'
        ? { kind: 'closing' }
        : {
            kind: 'error',
            reason: `step "${step.stepId}" (${step.stepKind}) cannot declare "closing"; only closure steps can`,
          };
    case 'repeat':
      // Unlike upstream, an explicit `transitions.repeat` is honoured (e.g. closure → work step).
      return step.transitions.repeat === undefined
        ? { kind: 'goto', stepId: step.stepId, warnings: [] }
        : resolveRule(input, step.transitions.repeat);
    case 'jump':
      if (input.target !== undefined) {
        return definition.steps[input.target] === undefined
          ? { kind: 'error', reason: `step "${step.stepId}": jump target "${input.target}" does not exist` }
          : { kind: 'goto', stepId: input.target, warnings: [] };
      }
      return resolveRule(input, step.transitions.jump);
    case 'next':
    case 'handoff':
    case 'escalate':
      return resolveRule(input, step.transitions[intent]);
    default:
      return assertNever(intent, 'intent');
  }
}
