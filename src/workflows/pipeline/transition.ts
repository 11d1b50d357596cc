/**
 * From a dispatched agent's run to the next phase (upstream phase-transition.ts and
 * dispatcher.ts): the outcome, the target phase, the label plan and whether to close.
 */
import { AgentRole, PhaseType, type PipelineAgent, type PipelineDefinition } from '../../contracts/pipeline.js';
import { bareLabel, phaseById, realLabel } from './phase-resolution.js';

/** How the child run ended, as far as the pipeline cares. */
export interface AgentRunEnd {
  readonly outcome: 'success' | 'failed';
  readonly verdict?: string;
}

export type Outcome = { readonly ok: true; readonly outcome: string } | { readonly ok: false; readonly reason: string };

/**
 * Transformer: `success` or `failed`, or the agent's verdict when it declares
 * `fallbackPhases` and gave one. Validator: its verdict; a failed validator run without
 * one is `failed` (then `outputPhases.failed` or `fallbackPhase` decide); a validator
 * that succeeded without a verdict is a clear failure (upstream threw).
 */
export function outcomeOf(agent: PipelineAgent, end: AgentRunEnd): Outcome {
  switch (agent.role) {
    case AgentRole.Transformer:
      if (end.verdict !== undefined && Object.keys(agent.fallbackPhases).length > 0)
        return { ok: true, outcome: end.verdict };
      return { ok: true, outcome: end.outcome };
    case AgentRole.Validator:
      if (end.verdict !== undefined) return { ok: true, outcome: end.verdict };
      if (end.outcome === 'failed') return { ok: true, outcome: 'failed' };
      return {
        ok: false,
        reason: `validator ${agent.id} completed without a verdict (its closure step's structured output needs a "verdict": one of ${Object.keys(agent.outputPhases).join(', ')})`,
      };
  }
}

export type Target =
  | { readonly ok: true; readonly phase: string; readonly fallback: boolean }
  | { readonly ok: false; readonly reason: string };

/** Transformer: success → outputPhase, else fallbackPhases[outcome] → fallbackPhase. Validator: outputPhases[outcome] → fallbackPhase. */
export function targetPhase(agent: PipelineAgent, outcome: string): Target {
  if (agent.role === AgentRole.Transformer) {
    if (outcome === 'success') return { ok: true, phase: agent.outputPhase, fallback: false };
    const mapped = Object.hasOwn(agent.fallbackPhases, outcome) ? agent.fallbackPhases[outcome] : undefined;
    if (mapped !== undefined) return { ok: true, phase: mapped, fallback: true };
  } else {
    const mapped = Object.hasOwn(agent.outputPhases, outcome) ? agent.outputPhases[outcome] : undefined;
    if (mapped !== undefined) return { ok: true, phase: mapped, fallback: false };
  }
  if (agent.fallbackPhase !== undefined) return { ok: true, phase: agent.fallbackPhase, fallback: true };
  const known =
    agent.role === AgentRole.Transformer
      ? ['success', ...Object.keys(agent.fallbackPhases)]
      : Object.keys(agent.outputPhases);
  return {
    ok: false,
    reason: `agent ${agent.id} (${agent.role}) has no phase for outcome "${outcome}" (it maps ${known.join(', ') || 'nothing'}) and no fallbackPhase`,
  };
}

export interface LabelPlan {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

/**
 * Remove every present label whose bare name is a labelMapping key (plus the prioritizer's
 * labels when the target is terminal); add the first labelMapping key (file order) mapping
 * to the target. A label both present and to be added is kept, not removed and re-added.
 */
export function labelPlan(current: readonly string[], target: string, definition: PipelineDefinition): LabelPlan {
  const prefix = definition.labelPrefix;
  const strip = new Set(definition.labelMapping.map(([label]) => label));
  if (phaseById(definition, target)?.type === PhaseType.Terminal)
    for (const label of definition.prioritizer?.labels ?? []) strip.add(label);
  const first = definition.labelMapping.find(([, phase]) => phase === target)?.[0];
  const add = first === undefined ? [] : [realLabel(first, prefix)];
  const remove = current.filter((label) => {
    const bare = bareLabel(label, prefix);
    return bare !== undefined && strip.has(bare) && !add.includes(label);
  });
  return { add, remove };
}

/** Close when the target is terminal, the agent has closeOnComplete, and closeCondition (if any) equals the outcome. */
export function shouldClose(
  agent: PipelineAgent,
  target: string,
  outcome: string,
  definition: PipelineDefinition,
): boolean {
  if (phaseById(definition, target)?.type !== PhaseType.Terminal) return false;
  if (!agent.closeOnComplete) return false;
  return agent.closeCondition === undefined || agent.closeCondition === outcome;
}
