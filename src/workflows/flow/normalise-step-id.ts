/**
 * stepId normalisation (seed 004 §3.1): the Flow owns the canonical stepId. A model
 * that reports another one is corrected, and the correction is logged.
 */
import type { JsonObject } from '../../contracts/json.js';

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
