/**
 * The one place the CLI loads a pipeline definition: `--workflow PATH`, else
 * `<repo>/.agent/workflow.json`. MERGE: import from src/definition/pipeline/ instead of
 * the stand-in (same two functions) and delete stand-in-pipeline-loader.ts.
 */
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import { optionalString, type ParsedFlags } from '../parse-flags.js';
import { resolveUserPath } from '../run-target.js';
import { defaultWorkflowPath, loadPipelineDefinitionOrThrow } from './stand-in-pipeline-loader.js';

export async function pipelineOf(flags: ParsedFlags, repoPath: string): Promise<PipelineDefinition> {
  const given = optionalString(flags, 'workflow');
  return loadPipelineDefinitionOrThrow(given === undefined ? defaultWorkflowPath(repoPath) : resolveUserPath(given));
}

/** The prioritizer agent's directory (the real loader may carry it as `prioritizer.agentDir`). */
export function prioritizerAgentDir(definition: PipelineDefinition): string | undefined {
  const p = definition.prioritizer as (PipelineDefinition['prioritizer'] & { agentDir?: string }) | undefined;
  if (p === undefined) return undefined;
  return (
    p.agentDir ??
    definition.agents.find((a) => a.id === p.agent)?.agentDir ??
    `${definition.path.replace(/[^/\\]+$/, '')}${p.agent}`
  );
}
