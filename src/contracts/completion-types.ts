/**
 * Completion (verdict) types (docs/concepts.md#completion-types), with the newer upstream
 * names as aliases.
 * The definition snapshot always carries the canonical seed name.
 */

export const CompletionType = {
  StepMachine: 'stepMachine',
  ExternalState: 'externalState',
  IterationBudget: 'iterationBudget',
  KeywordSignal: 'keywordSignal',
  StructuredSignal: 'structuredSignal',
  CheckBudget: 'checkBudget',
  Composite: 'composite',
  Custom: 'custom',
} as const;
export type CompletionType = (typeof CompletionType)[keyof typeof CompletionType];

/** Upstream (climpt ≥ 1.13) names → seed names. */
export const UPSTREAM_COMPLETION_ALIASES: Readonly<Record<string, CompletionType>> = {
  'detect:graph': 'stepMachine',
  'poll:state': 'externalState',
  'count:iteration': 'iterationBudget',
  'detect:keyword': 'keywordSignal',
  'detect:structured': 'structuredSignal',
  'count:check': 'checkBudget',
  'meta:composite': 'composite',
  'meta:custom': 'custom',
};

/** Accepts a seed or upstream name; returns the canonical name or undefined. */
export function canonicalCompletionType(name: string): CompletionType | undefined {
  if ((Object.values(CompletionType) as string[]).includes(name)) return name as CompletionType;
  return UPSTREAM_COMPLETION_ALIASES[name];
}

export const CompositeOperator = { And: 'and', Or: 'or', First: 'first' } as const;
export type CompositeOperator = (typeof CompositeOperator)[keyof typeof CompositeOperator];

/**
 * The failure pattern of stage 3 when the verdict does not accept a validated closing:
 * its retry prompt (`<c1>/<c2>/<c3>/f_failed_verdict-not-met.md`) tells the model why,
 * with params `reason`, `verdict` (the type) and `nextStep` (where the flow goes on).
 */
export const VERDICT_NOT_MET = 'verdict-not-met';

/**
 * `runner.verdict.config.closureGrace`: iterations a run may take past its iteration cap,
 * at a closure step, once the completion criterion is met (default 0: the cap is exact).
 */
export const CLOSURE_GRACE_KEY = 'closureGrace';
