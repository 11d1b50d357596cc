/**
 * composite (upstream `meta:composite`): combines child verdicts. Every child receives
 * the SAME input as the composite — upstream never forwarded iterations or summaries to
 * children, so counting and keyword children could never finish (§10.11).
 *   and    done when every child is done
 *   or     done when any child is done (all children are evaluated and reported)
 *   first  children in order; the first done child decides, with its reason
 * PURE. The child evaluator is passed in to avoid an import cycle with the dispatcher.
 */
import type { CompositeOperator } from '../../contracts/completion-types.js';
import type { VerdictSpec } from '../../contracts/definition.js';
import type { VerdictDecision, VerdictInput } from './verdict-types.js';

export type EvaluateChild = (spec: VerdictSpec, input: VerdictInput) => VerdictDecision;

export function compositeVerdict(spec: VerdictSpec, input: VerdictInput, evaluate: EvaluateChild): VerdictDecision {
  const children = spec.children ?? [];
  const operator: CompositeOperator = spec.operator ?? 'and';
  if (children.length === 0)
    return { done: false, reason: 'The composite verdict has no conditions, so it never completes.' };

  switch (operator) {
    case 'and': {
      const decisions = children.map((c) => evaluate(c, input));
      const waiting = decisions.filter((d) => !d.done);
      return waiting.length === 0
        ? {
            done: true,
            reason: `All ${decisions.length} conditions are met: ${joinReasons(decisions)}`,
            children: decisions,
          }
        : {
            done: false,
            reason: `${waiting.length} of ${decisions.length} conditions are not met yet: ${joinReasons(waiting)}`,
            children: decisions,
          };
    }
    case 'or': {
      const decisions = children.map((c) => evaluate(c, input));
      const met = decisions.filter((d) => d.done);
      return met.length > 0
        ? {
            done: true,
            reason: `${met.length} of ${decisions.length} conditions are met: ${joinReasons(met)}`,
            children: decisions,
          }
        : {
            done: false,
            reason: `None of the ${decisions.length} conditions is met: ${joinReasons(decisions)}`,
            children: decisions,
          };
    }
    case 'first': {
      const decisions: VerdictDecision[] = [];
      for (const child of children) {
        const decision = evaluate(child, input);
        decisions.push(decision);
        if (decision.done) return { done: true, reason: decision.reason, children: decisions };
      }
      return {
        done: false,
        reason: `None of the ${decisions.length} conditions is met: ${joinReasons(decisions)}`,
        children: decisions,
      };
    }
  }
}

function joinReasons(decisions: readonly VerdictDecision[]): string {
  return decisions.map((d) => d.reason.replace(/\.$/, '')).join('; ') + '.';
}
