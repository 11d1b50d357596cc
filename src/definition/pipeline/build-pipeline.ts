/**
 * Turns a schema- and rule-checked workflow.json into the PipelineDefinition the
 * pipeline workflow runs: defaults applied (rules: maxCycles 5, cycleDelayMs 10000,
 * maxConsecutivePhases 0; id = labelPrefix or "default"), agents resolved to their
 * directories. Only called when there was no error, so every reference resolves.
 */
import {
  AgentRole,
  PhaseType,
  type LabelSpec,
  type PipelineAgent,
  type PipelineDefinition,
  type PipelinePhase,
  type PipelineRules,
} from '../../contracts/pipeline.js';
import type { RawAgent, RawPhase, RawWorkflowFile } from './workflow-file-schema.js';

export const DEFAULT_PIPELINE_RULES: PipelineRules = { maxCycles: 5, cycleDelayMs: 10_000, maxConsecutivePhases: 0 };
export const DEFAULT_PIPELINE_ID = 'default';

export function buildPipeline(
  raw: RawWorkflowFile,
  at: { readonly path: string; readonly hash: string; readonly agentDirs: ReadonlyMap<string, string> },
): PipelineDefinition {
  const dirOf = (id: string): string => {
    const dir = at.agentDirs.get(id);
    if (dir === undefined) throw new Error(`agent '${id}' has no resolved directory`);
    return dir;
  };
  const labels: Record<string, LabelSpec> = {};
  for (const [name, spec] of Object.entries(raw.labels ?? {})) {
    labels[name] = { color: spec.color.toLowerCase(), description: spec.description };
  }
  return {
    path: at.path,
    id: raw.labelPrefix ?? DEFAULT_PIPELINE_ID,
    version: raw.version,
    ...(raw.labelPrefix === undefined ? {} : { labelPrefix: raw.labelPrefix }),
    phases: Object.entries(raw.phases).map(([id, p]) => toPhase(id, p)),
    labelMapping: Object.entries(raw.labelMapping),
    labels,
    agents: Object.entries(raw.agents).map(([id, a]) => toAgent(id, a, dirOf(id))),
    rules: {
      maxCycles: raw.rules?.maxCycles ?? DEFAULT_PIPELINE_RULES.maxCycles,
      cycleDelayMs: raw.rules?.cycleDelayMs ?? DEFAULT_PIPELINE_RULES.cycleDelayMs,
      maxConsecutivePhases: raw.rules?.maxConsecutivePhases ?? DEFAULT_PIPELINE_RULES.maxConsecutivePhases,
    },
    commentTemplates: { ...(raw.handoff?.commentTemplates ?? {}) },
    ...(raw.prioritizer === undefined
      ? {}
      : {
          prioritizer: {
            agent: raw.prioritizer.agent,
            agentDir: dirOf(raw.prioritizer.agent),
            labels: [...raw.prioritizer.labels],
            ...(raw.prioritizer.defaultLabel === undefined ? {} : { defaultLabel: raw.prioritizer.defaultLabel }),
          },
        }),
    hash: at.hash,
  };
}

function toPhase(id: string, p: RawPhase): PipelinePhase {
  switch (p.type) {
    case PhaseType.Actionable:
      return { id, type: PhaseType.Actionable, priority: p.priority ?? 0, agent: p.agent ?? '' };
    case PhaseType.Terminal:
    case PhaseType.Blocking:
      return { id, type: p.type };
    default:
      throw new Error(`phase '${id}' has type '${p.type}'`);
  }
}

function toAgent(id: string, a: RawAgent, agentDir: string): PipelineAgent {
  const common = {
    id,
    agentDir,
    ...(a.fallbackPhase === undefined ? {} : { fallbackPhase: a.fallbackPhase }),
    closeOnComplete: a.closeOnComplete ?? false,
    ...(a.closeCondition === undefined ? {} : { closeCondition: a.closeCondition }),
  };
  switch (a.role) {
    case AgentRole.Transformer:
      return {
        ...common,
        role: AgentRole.Transformer,
        outputPhase: a.outputPhase ?? '',
        fallbackPhases: { ...(a.fallbackPhases ?? {}) },
      };
    case AgentRole.Validator:
      return { ...common, role: AgentRole.Validator, outputPhases: { ...(a.outputPhases ?? {}) } };
    default:
      throw new Error(`agent '${id}' has role '${a.role}'`);
  }
}
