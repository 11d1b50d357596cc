/**
 * Where the flow goes when a completion criterion is met at a work or verification
 * step (docs/concepts.md#completion-types: a criterion decides whether the agent MAY complete; only a closure
 * step's validated `closing` completes it). The nearest closure step reachable through
 * the step's transitions wins (breadth-first, in declaration order), else the first
 * closure step of the registry. PURE.
 */
import type { AgentDefinition, TransitionRule } from '../../contracts/definition.js';

function targetsOf(rule: TransitionRule | undefined): string[] {
  if (rule === undefined) return [];
  if ('target' in rule) return rule.target === null ? [] : [rule.target];
  return Object.values(rule.targets).filter((t): t is string => t !== null);
}

export function closureStepFor(definition: AgentDefinition, fromStepId: string): string | undefined {
  const seen = new Set<string>([fromStepId]);
  let frontier = [fromStepId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      const step = definition.steps[id];
      if (step === undefined) continue;
      if (step.stepKind === 'closure') return id;
      for (const rule of Object.values(step.transitions)) {
        for (const target of targetsOf(rule)) {
          if (!seen.has(target)) {
            seen.add(target);
            next.push(target);
          }
        }
      }
    }
    frontier = next;
  }
  return Object.values(definition.steps).find((s) => s.stepKind === 'closure')?.stepId;
}
