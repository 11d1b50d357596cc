/**
 * Resolves a pipeline's agents once at its start: each agent directory loads (so a
 * broken agent stops the pipeline before any dispatch, naming it), its own name gives
 * the child Workflow IDs, and its declared parameters get their values: the caller's,
 * then `issue` (upstream passed `{ issue }` to every agent), then the defaults. A
 * required parameter left without a value is a clear error (upstream dispatched without
 * applying defaults or checking required ones [BUG]).
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { ParameterSpec } from '../../contracts/definition.js';
import { withParameterDefaults, type ParameterValue } from '../../contracts/parameter-values.js';
import type { ResolvePipelineAgentsInput, ResolvedPipelineAgent } from '../../contracts/pipeline-run.js';
import { loadAgentDefinitionOrThrow } from '../../definition/load/load-agent-definition.js';

export function pipelineAgentParameters(
  agentId: string,
  specs: Readonly<Record<string, ParameterSpec>>,
  given: Readonly<Record<string, ParameterValue>> | undefined,
  issue: number,
): Record<string, ParameterValue> {
  const values = withParameterDefaults(specs, given);
  const issueSpec = specs['issue'];
  if (issueSpec !== undefined && given?.['issue'] === undefined)
    values['issue'] = issueSpec.type === 'number' ? issue : String(issue);
  for (const [key, spec] of Object.entries(specs)) {
    if (spec.required && values[key] === undefined)
      throw new AgentError(
        FailureType.ConfigInvalid,
        `pipeline agent ${agentId} needs its required parameter ${key} (${spec.cli}${spec.description ? `: ${spec.description}` : ''}), and it has no default`,
        {
          where: `agents.${agentId}`,
          expected: `a default for ${key} in its agent.json, or a value in the pipeline input`,
        },
      );
  }
  return values;
}

export async function resolvePipelineAgents(
  input: ResolvePipelineAgentsInput,
): Promise<Record<string, ResolvedPipelineAgent>> {
  const out: Record<string, ResolvedPipelineAgent> = {};
  for (const agent of input.agents) {
    const definition = await loadAgentDefinitionOrThrow(agent.agentDir, input.overrides);
    out[agent.id] = {
      name: definition.name,
      agentDir: definition.agentDir,
      parameters: pipelineAgentParameters(agent.id, definition.parameters, input.parameters?.[agent.id], input.issue),
      branchPrefix: definition.worktree.branchPrefix,
    };
  }
  return out;
}
