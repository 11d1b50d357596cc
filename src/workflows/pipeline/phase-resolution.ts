/**
 * Which phase an issue is in, from its labels (upstream label-resolver.ts, §6.2 steps 2–4).
 *
 * Labels are matched by their bare name: with a `labelPrefix` only `<prefix>:<bare>`
 * labels count (others are not the pipeline's); without one every label is bare.
 * Precedence: a label mapping to a blocking phase wins, then one mapping to a terminal
 * phase (upstream stops on the first terminal-or-blocking label in label order; we rank
 * blocking first so the answer never depends on label order), then the actionable phase
 * with the lowest `priority`, ties broken by phase id. Unknown labels are ignored.
 */
import {
  PhaseType,
  type PipelineAgent,
  type PipelineDefinition,
  type PipelinePhase,
} from '../../contracts/pipeline.js';

export type ResolvedPhase =
  | { readonly kind: 'actionable'; readonly phase: string; readonly agent: PipelineAgent }
  /** An actionable phase whose agent is not defined (the loader rejects it; kept total here). */
  | { readonly kind: 'no-agent'; readonly phase: string; readonly agentId: string }
  | { readonly kind: 'terminal'; readonly phase: string }
  | { readonly kind: 'blocking'; readonly phase: string }
  | { readonly kind: 'none' };

/** The bare name of a real label, or undefined when it is not the pipeline's. */
export function bareLabel(label: string, prefix: string | undefined): string | undefined {
  if (!prefix) return label;
  const marker = `${prefix}:`;
  return label.startsWith(marker) ? label.slice(marker.length) : undefined;
}

/** The real label of a bare name. */
export function realLabel(bare: string, prefix: string | undefined): string {
  return prefix ? `${prefix}:${bare}` : bare;
}

export function phaseById(definition: PipelineDefinition, id: string): PipelinePhase | undefined {
  return definition.phases.find((p) => p.id === id);
}

export function agentById(definition: PipelineDefinition, id: string): PipelineAgent | undefined {
  return definition.agents.find((a) => a.id === id);
}

/** Phases the labels map to, in label order, each once. */
export function phasesOfLabels(labels: readonly string[], definition: PipelineDefinition): PipelinePhase[] {
  const mapping = new Map(definition.labelMapping);
  const out: PipelinePhase[] = [];
  for (const label of labels) {
    const bare = bareLabel(label, definition.labelPrefix);
    if (bare === undefined) continue;
    const id = mapping.get(bare);
    const phase = id === undefined ? undefined : phaseById(definition, id);
    if (phase !== undefined && !out.includes(phase)) out.push(phase);
  }
  return out;
}

export function resolvePhase(labels: readonly string[], definition: PipelineDefinition): ResolvedPhase {
  const phases = phasesOfLabels(labels, definition);
  const blocking = phases.find((p) => p.type === PhaseType.Blocking);
  if (blocking) return { kind: 'blocking', phase: blocking.id };
  const terminal = phases.find((p) => p.type === PhaseType.Terminal);
  if (terminal) return { kind: 'terminal', phase: terminal.id };
  let best: Extract<PipelinePhase, { type: 'actionable' }> | undefined;
  for (const p of phases) {
    if (p.type !== PhaseType.Actionable) continue;
    if (best === undefined || p.priority < best.priority || (p.priority === best.priority && p.id < best.id)) best = p;
  }
  if (best === undefined) return { kind: 'none' };
  const agent = agentById(definition, best.agent);
  return agent === undefined
    ? { kind: 'no-agent', phase: best.id, agentId: best.agent }
    : { kind: 'actionable', phase: best.id, agent };
}
