/**
 * Where StepContext used to live, kept as a re-export for code outside src/workflows/
 * (scripts/bench/in-process.ts) that this refactor may not touch. StepContext is part
 * of the run's state now, src/workflows/run/state/step-context.ts: import from there;
 * delete this file once no one imports it.
 */
export {
  EMPTY_STEP_CONTEXT,
  recordHandoff,
  toPromptValue,
  toUvVariables,
  type Handoff,
  type StepContext,
} from '../run/state/step-context.js';
