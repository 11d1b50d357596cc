/**
 * Which steps a run can reach: the one graph walk the loader's rules (graph-rules.ts)
 * and the prompt-variable check share, so `validate` and `start-run` agree on what
 * "reachable from the run's entry" means.
 *
 * Transitions are followed from the entry; a `jump` routed only by `targetField` may
 * lead anywhere, so it reaches every step. A run can also arrive where no transition
 * leads: when a completion criterion (any type but stepMachine) is met at a step from
 * which no closure step is reachable, the flow goes to the registry's first closure step
 * (workflows/completion/closure-target.ts), so that step counts as reached too.
 */
import type { StepDefinition } from '../contracts/definition.js';
import type { StepKind } from '../contracts/intents.js';
import { ruleTargets } from './normalise/normalise-steps.js';

/** What the walk reads of a step: its gate (for a dynamic jump) and its transitions. */
export type RoutedStep = Pick<StepDefinition, 'structuredGate' | 'transitions'> & {
  readonly stepKind?: StepKind | undefined;
};

/** Every step reachable from `entry` through transitions, the entry included. */
export function reachableSteps(steps: ReadonlyMap<string, RoutedStep>, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const step = steps.get(id);
    if (!step) continue;
    const gate = step.structuredGate;
    const dynamicJump =
      gate.allowedIntents.includes('jump') && step.transitions.jump === undefined && gate.targetField !== undefined;
    const next = dynamicJump
      ? [...steps.keys()]
      : Object.values(step.transitions).flatMap((r) => (r ? ruleTargets(r) : []));
    for (const target of next) {
      if (!seen.has(target) && steps.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return seen;
}

/**
 * The steps a run started at `entry` can execute: reachableSteps, plus the first closure
 * step (and what it reaches) when a criterion can send a step there (`byCriterion`:
 * every completion type but stepMachine).
 */
export function stepsARunReaches(
  steps: ReadonlyMap<string, RoutedStep>,
  entry: string,
  byCriterion: boolean,
): Set<string> {
  const reached = reachableSteps(steps, entry);
  if (!byCriterion) return reached;
  const isClosure = (id: string): boolean => steps.get(id)?.stepKind === 'closure';
  const firstClosure = [...steps.keys()].find(isClosure);
  if (firstClosure === undefined || reached.has(firstClosure)) return reached;
  const stranded = [...reached].some((id) => !isClosure(id) && ![...reachableSteps(steps, id)].some(isClosure));
  if (!stranded) return reached;
  for (const id of reachableSteps(steps, firstClosure)) reached.add(id);
  return reached;
}
