/** Rules on each step by itself: id, kind, and the intents its gate may declare (docs/concepts.md#intents). */
import { STEP_KIND_INTENTS } from '../../contracts/intents.js';
import { problem, warning, type Problem } from '../problem.js';
import type { DefinitionRule } from './rule.js';

export const stepIdEqualsKey: DefinitionRule = (ctx) =>
  ctx.steps
    .filter((s) => s.raw.stepId !== s.key)
    .map((s) =>
      problem({
        code: 'STEP_ID_MISMATCH',
        file: ctx.registryFile,
        pointer: `${s.pointer}/stepId`,
        rule: 'step-id-equals-key',
        expected: `'${s.key}'`,
        message: `stepId '${s.raw.stepId}' differs from its key '${s.key}'`,
      }),
    );

export const stepKindKnown: DefinitionRule = (ctx) =>
  ctx.steps
    .filter((s) => s.stepKind === undefined)
    .map((s) =>
      problem({
        code: 'STEP_KIND_MISSING',
        file: ctx.registryFile,
        pointer: `${s.pointer}/stepKind`,
        rule: 'step-kind-known',
        expected: 'stepKind work|verification|closure, or c2 initial|continuation|verification|closure',
        message: `cannot tell the kind of step '${s.key}' (c2 '${s.raw.c2}')`,
      }),
    );

/** allowedIntents ⊆ the kind's intents; the fallback intent must be one of them. */
export const intentsAllowedForKind: DefinitionRule = (ctx) => {
  const problems: Problem[] = [];
  for (const step of ctx.steps) {
    // A built-in gate (no structuredGate declared) is judged by flowStepsComplete.
    if (step.stepKind === undefined || step.definition.gated === false) continue;
    const kindIntents = STEP_KIND_INTENTS[step.stepKind];
    const gate = step.definition.structuredGate;
    const gatePointer = `${step.pointer}/structuredGate`;
    for (const intent of gate.allowedIntents.filter((i) => !kindIntents.includes(i))) {
      problems.push(
        problem({
          code: 'INTENT_NOT_ALLOWED_FOR_KIND',
          file: ctx.registryFile,
          pointer: `${gatePointer}/allowedIntents`,
          rule: 'intents-per-step-kind',
          expected: `intents among ${kindIntents.join(', ')} for a ${step.stepKind} step`,
          message: `intent '${intent}' is not allowed for ${step.stepKind} step '${step.key}'`,
        }),
      );
    }
    const fallback = gate.fallbackIntent;
    if (fallback !== undefined && !gate.allowedIntents.includes(fallback)) {
      problems.push(
        problem({
          code: 'FALLBACK_INTENT_NOT_ALLOWED',
          file: ctx.registryFile,
          pointer: `${gatePointer}/fallbackIntent`,
          rule: 'fallback-intent-allowed',
          expected: `one of allowedIntents (${gate.allowedIntents.join(', ')})`,
          message: `fallbackIntent '${fallback}' is not an allowed intent of step '${step.key}'`,
        }),
      );
    }
  }
  return problems;
};

/** An initial step that may hand off skips the work cycle; allowed, but flagged (docs/concepts.md#handoff). */
export const handoffOnInitialStep: DefinitionRule = (ctx) =>
  ctx.steps
    .filter((s) => s.raw.c2 === 'initial' && s.definition.structuredGate.allowedIntents.includes('handoff'))
    .map((s) =>
      warning({
        code: 'HANDOFF_ON_INITIAL',
        file: ctx.registryFile,
        pointer: `${s.pointer}/structuredGate/allowedIntents`,
        rule: 'sequential-step-enforcement',
        expected: "initial steps use 'next'/'repeat'",
        message: `initial step '${s.key}' may emit 'handoff' before any continuation work (docs/concepts.md, Handoff)`,
      }),
    );
