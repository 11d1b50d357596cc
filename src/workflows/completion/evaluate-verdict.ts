/**
 * The verdict dispatcher: one strategy per completion type, chosen by an exhaustive
 * switch so a new type cannot be forgotten. PURE: called from workflow code.
 */
import { assertNever } from '../../contracts/json.js';
import type { VerdictSpec } from '../../contracts/definition.js';
import { checkBudgetVerdict } from './check-count.js';
import { compositeVerdict } from './composite.js';
import { customVerdict } from './custom.js';
import { externalStateVerdict } from './external-state.js';
import { iterationBudgetVerdict } from './iteration-budget.js';
import { keywordSignalVerdict } from './keyword-signal.js';
import { stepMachineVerdict } from './step-machine.js';
import { structuredSignalVerdict } from './structured-signal.js';
import type { VerdictDecision, VerdictInput, VerdictNeeds } from './verdict-types.js';

export type { VerdictDecision, VerdictInput, VerdictNeeds } from './verdict-types.js';

export function evaluateVerdict(spec: VerdictSpec, input: VerdictInput): VerdictDecision {
  switch (spec.type) {
    case 'stepMachine':
      return stepMachineVerdict(input);
    case 'externalState':
      return externalStateVerdict(input);
    case 'iterationBudget':
      return iterationBudgetVerdict(spec.config, input);
    case 'keywordSignal':
      return keywordSignalVerdict(spec.config, input);
    case 'structuredSignal':
      return structuredSignalVerdict(spec.config, input);
    case 'checkBudget':
      return checkBudgetVerdict(spec.config, input);
    case 'composite':
      return compositeVerdict(spec, input, evaluateVerdict);
    case 'custom':
      return customVerdict(input);
    default:
      return assertNever(spec.type, 'completion type');
  }
}

/** What the workflow must fetch (through activities) before calling evaluateVerdict. */
export function verdictNeeds(spec: VerdictSpec): VerdictNeeds {
  const all = flatten(spec);
  const handler = all
    .map((s) => (s.type === 'custom' ? s.config['handlerPath'] : undefined))
    .find((p): p is string => typeof p === 'string' && p !== '');
  return { externalState: all.some((s) => s.type === 'externalState'), ...(handler ? { customHandler: handler } : {}) };
}

function flatten(spec: VerdictSpec): VerdictSpec[] {
  return [spec, ...(spec.children ?? []).flatMap(flatten)];
}
