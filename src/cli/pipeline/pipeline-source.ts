/**
 * The one place the CLI loads a pipeline definition: `--workflow PATH`, else
 * `<repo>/.agent/workflow.json`, through the definition layer's loader (every WF-* check).
 */
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import { optionalString, type ParsedFlags } from '../flags/parse-flags.js';
import { resolveUserPath } from '../run-target.js';
import {
  defaultWorkflowPath,
  loadPipelineDefinitionOrThrow,
} from '../../definition/pipeline/load-pipeline-definition.js';

export async function pipelineOf(flags: ParsedFlags, repoPath: string): Promise<PipelineDefinition> {
  const given = optionalString(flags, 'workflow');
  return loadPipelineDefinitionOrThrow(given === undefined ? defaultWorkflowPath(repoPath) : resolveUserPath(given));
}

/** The prioritizer agent's directory (resolved by the loader beside workflow.json). */
export function prioritizerAgentDir(definition: PipelineDefinition): string | undefined {
  return definition.prioritizer?.agentDir;
}
