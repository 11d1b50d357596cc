/**
 * The closure action an agent gets when agent.json does not declare
 * `runner.integrations.github.defaultClosureAction`.
 *
 * Upstream (climpt ≥ 1.13) changes an issue's state only for a `poll:state` verdict: its
 * count/graph/keyword/structured/composite/custom verdict handlers have no boundary
 * effect, so a ported considerer, detailer or triager answers its issue and leaves it
 * open. Here every completion applies the closure action, so such an agent gets
 * `label-only` by default (the issue stays open; declared completion labels are set),
 * and the load says so. The definition is in the upstream format when its verdict type
 * is written with an upstream name (`count:iteration`, `detect:graph`, ...); an agent
 * in the seed format (`stepMachine`, `iterationBudget`, ... or no verdict) keeps `close`.
 * Only the action defaults: the closure prompt adaptation still follows what is declared,
 * as upstream's closure-adapter does.
 */
import { UPSTREAM_COMPLETION_ALIASES, CompletionType } from '../../contracts/completion-types.js';
import { ClosureAction } from '../../contracts/definition.js';
import { warning, type Problem } from '../problem.js';
import type { RawAgentFile } from '../load/raw-files.js';

export const CLOSURE_ACTION_POINTER = '/runner/integrations/github/defaultClosureAction';
export const CLOSURE_ACTION_DEFAULTED = 'CLOSURE_ACTION_DEFAULTED';

/** The definition's load warning about an inferred closure action, if any (shown when a run starts). */
export function closureActionNotice(definition: { readonly warnings: readonly string[] }): string | undefined {
  return definition.warnings.find((w) => w.includes(`: ${CLOSURE_ACTION_DEFAULTED} `));
}

export interface ClosureActionChoice {
  readonly action: ClosureAction;
  /** What was declared, if anything (the closure prompt adaptation follows it). */
  readonly declared: ClosureAction | undefined;
  /** Set when the action was inferred from the upstream format: says what and how to override. */
  readonly notice: Problem | undefined;
}

export function chooseClosureAction(agent: RawAgentFile, file: string): ClosureActionChoice {
  const declared = agent.runner.integrations?.github?.defaultClosureAction as ClosureAction | undefined;
  if (declared !== undefined) return { action: declared, declared, notice: undefined };
  const verdictType = agent.runner.verdict?.type;
  const upstreamCanonical = verdictType === undefined ? undefined : UPSTREAM_COMPLETION_ALIASES[verdictType];
  if (upstreamCanonical === undefined || upstreamCanonical === CompletionType.ExternalState) {
    return { action: ClosureAction.Close, declared: undefined, notice: undefined };
  }
  return {
    action: ClosureAction.LabelOnly,
    declared: undefined,
    notice: warning({
      code: CLOSURE_ACTION_DEFAULTED,
      file,
      pointer: CLOSURE_ACTION_POINTER,
      rule: 'upstream-closure-parity',
      expected: `"defaultClosureAction": "close" (or "label-and-close") to close the issue on completion`,
      message:
        `closure action is label-only: the verdict type "${verdictType}" is upstream's, where only ` +
        `poll:state changes an issue's state, and no defaultClosureAction is declared; ` +
        `the issue stays open on completion`,
    }),
  };
}
