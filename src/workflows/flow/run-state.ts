/**
 * Where RunState used to live, kept as a re-export for code outside src/workflows/
 * (scripts/bench/in-process.ts) that this refactor may not touch. The state has one
 * owner now, src/workflows/run/state/: import from there; delete this file once no
 * one imports it.
 */
export { budgetStatus, initialRunState, remainingBudget, type RunState } from '../run/state/run-state.js';
export { recordStep } from '../run/state/run-transitions.js';
