/**
 * `validate --workflow PATH`: loads the pipeline (every WF-* problem and every problem
 * of the agent directories it names), then proves each agent's step schemas and prompts
 * resolve, as `validate --agent` does. Exit 2 lists every problem, one per line, in the
 * agent validation's format; exit 0 prints a summary of phases, labels and agents.
 */
import path from 'node:path';
import type { PipelineAgent, PipelineDefinition } from '../../contracts/pipeline.js';
import { loadAgentDefinition } from '../load/load-agent-definition.js';
import { formatProblem, type Problem } from '../problem.js';
import { proveResolution, type ValidateOutcome } from '../validate-command.js';
import { loadPipelineDefinition } from './load-pipeline-definition.js';

export async function runValidateWorkflow(workflowPath: string): Promise<ValidateOutcome> {
  const abs = path.resolve(workflowPath);
  const result = await loadPipelineDefinition(abs);
  if (!result.ok) return failure(abs, result.problems, result.warnings);
  const failures = await proveAgents(result.definition);
  if (failures.length > 0) return failure(abs, failures, result.warnings);
  return {
    exitCode: 0,
    text: summary(result.definition, result.warnings),
    report: {
      kind: 'workflow',
      path: abs,
      valid: true,
      errors: [],
      warnings: result.warnings,
      hash: result.definition.hash,
    },
  };
}

/** Step schemas and prompts of every agent directory the pipeline names (each once). */
async function proveAgents(pipeline: PipelineDefinition): Promise<string[]> {
  const dirs = new Map<string, string>();
  for (const a of pipeline.agents) if (!dirs.has(a.agentDir)) dirs.set(a.agentDir, a.id);
  if (pipeline.prioritizer && !dirs.has(pipeline.prioritizer.agentDir))
    dirs.set(pipeline.prioritizer.agentDir, pipeline.prioritizer.agent);
  const failures = await Promise.all(
    [...dirs].map(async ([dir, id]) => {
      const loaded = await loadAgentDefinition(dir);
      if (!loaded.ok) return loaded.problems.map((p) => `agent '${id}': ${formatProblem(p)}`);
      return (await proveResolution(loaded.definition)).failures.map((f) => `agent '${id}': ${f}`);
    }),
  );
  return failures.flat();
}

function failure(file: string, errors: readonly (Problem | string)[], warnings: readonly Problem[]): ValidateOutcome {
  const lines = [
    `Workflow file ${file} is invalid: ${errors.length} error(s), ${warnings.length} warning(s).`,
    ...errors.map((e) => `error   ${typeof e === 'string' ? e : formatProblem(e)}`),
    ...warnings.map((w) => `warning ${formatProblem(w)}`),
  ];
  return {
    exitCode: 2,
    text: lines.join('\n'),
    report: { kind: 'workflow', path: file, valid: false, errors, warnings },
  };
}

function summary(d: PipelineDefinition, warnings: readonly Problem[]): string {
  const prefix = d.labelPrefix === undefined ? '' : `${d.labelPrefix}:`;
  const labelsOf = (phase: string): string =>
    d.labelMapping
      .filter(([, p]) => p === phase)
      .map(([l]) => `'${prefix}${l}'`)
      .join(', ') || '(no label)';
  return [
    `Pipeline '${d.id}' in ${d.path} is valid (definition ${d.hash.slice(0, 12)}).`,
    `Rules: at most ${d.rules.maxCycles} cycle(s), ${d.rules.cycleDelayMs} ms between cycles, ` +
      `max consecutive phases ${d.rules.maxConsecutivePhases === 0 ? 'off' : d.rules.maxConsecutivePhases}.`,
    'Phases:',
    ...d.phases.map((p) =>
      p.type === 'actionable'
        ? `  ${p.id} (actionable, priority ${p.priority}, agent ${p.agent}) ← ${labelsOf(p.id)}`
        : `  ${p.id} (${p.type}) ← ${labelsOf(p.id)}`,
    ),
    'Agents:',
    ...d.agents.map((a) => `  ${a.id} (${a.role}, ${a.agentDir}): ${routes(a)}`),
    ...(d.prioritizer === undefined
      ? []
      : [`Prioritizer: ${d.prioritizer.agent} (${d.prioritizer.agentDir}), labels ${d.prioritizer.labels.join(', ')}`]),
    `Labels declared: ${Object.keys(d.labels).length}; comment templates: ${Object.keys(d.commentTemplates).length}.`,
    ...(warnings.length === 0
      ? ['No warnings.']
      : [`${warnings.length} warning(s):`, ...warnings.map((w) => `warning ${formatProblem(w)}`)]),
  ].join('\n');
}

function routes(a: PipelineAgent): string {
  const map = a.role === 'transformer' ? { success: a.outputPhase, ...a.fallbackPhases } : a.outputPhases;
  const parts = Object.entries(map).map(([outcome, phase]) => `${outcome}→${phase}`);
  if (a.fallbackPhase !== undefined) parts.push(`otherwise→${a.fallbackPhase}`);
  const close = a.closeOnComplete ? `; closes the issue${a.closeCondition ? ` on ${a.closeCondition}` : ''}` : '';
  return `${parts.join(', ')}${close}`;
}
