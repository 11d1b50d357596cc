/**
 * STAND-IN, TO BE REPLACED AT MERGE by the real loader (src/definition/pipeline/,
 * `loadPipelineDefinitionOrThrow` and `defaultWorkflowPath`, with every WF-* check).
 * Same signatures, so the swap is one import in pipeline-source.ts and deleting this
 * file. It only normalises a well-formed upstream `workflow.json` into a
 * PipelineDefinition (defaults applied, agent directories `<dir of the file>/<directory ?? id>`)
 * and rejects what the pipeline could not run at all; it is not the validator.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { PipelineAgent, PipelineDefinition, PipelinePhase } from '../../contracts/pipeline.js';

export function defaultWorkflowPath(repoPath: string): string {
  return join(repoPath, '.agent', 'workflow.json');
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): Record<string, string> =>
  isObject(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

export async function loadPipelineDefinitionOrThrow(workflowPath: string): Promise<PipelineDefinition> {
  const path = resolve(workflowPath);
  const bad = (problem: string): AgentError =>
    new AgentError(FailureType.ConfigInvalid, `${path}: ${problem}`, {
      where: path,
      expected: 'an upstream workflow.json',
    });
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw bad('cannot read the file');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw bad(`invalid JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw) || !isObject(raw['phases']) || !isObject(raw['labelMapping']) || !isObject(raw['agents']))
    throw bad('needs the objects phases, labelMapping and agents');
  const base = dirname(path);
  const phases: PipelinePhase[] = Object.entries(raw['phases']).map(([id, p]) => {
    const phase = isObject(p) ? p : {};
    if (phase['type'] === 'actionable') {
      if (typeof phase['agent'] !== 'string') throw bad(`phase ${id} is actionable without an agent`);
      return { id, type: 'actionable', priority: Number(phase['priority'] ?? Infinity), agent: phase['agent'] };
    }
    if (phase['type'] === 'terminal' || phase['type'] === 'blocking') return { id, type: phase['type'] };
    throw bad(`phase ${id} has type ${JSON.stringify(phase['type'])}`);
  });
  const agents: PipelineAgent[] = Object.entries(raw['agents']).map(([id, a]) => {
    const agent = isObject(a) ? a : {};
    const common = {
      id,
      agentDir: join(base, typeof agent['directory'] === 'string' ? agent['directory'] : id),
      closeOnComplete: agent['closeOnComplete'] === true,
      ...(typeof agent['fallbackPhase'] === 'string' ? { fallbackPhase: agent['fallbackPhase'] } : {}),
      ...(typeof agent['closeCondition'] === 'string' ? { closeCondition: agent['closeCondition'] } : {}),
    };
    if (agent['role'] === 'transformer' && typeof agent['outputPhase'] === 'string')
      return {
        ...common,
        role: 'transformer',
        outputPhase: agent['outputPhase'],
        fallbackPhases: strings(agent['fallbackPhases']),
      };
    if (agent['role'] === 'validator')
      return { ...common, role: 'validator', outputPhases: strings(agent['outputPhases']) };
    throw bad(`agent ${id} needs role transformer (with outputPhase) or validator`);
  });
  const rules = isObject(raw['rules']) ? raw['rules'] : {};
  const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  const handoff = isObject(raw['handoff']) ? raw['handoff'] : {};
  const prioritizer = isObject(raw['prioritizer']) ? raw['prioritizer'] : undefined;
  const prefix = typeof raw['labelPrefix'] === 'string' && raw['labelPrefix'] !== '' ? raw['labelPrefix'] : undefined;
  return {
    path,
    id: prefix ?? 'default',
    version: typeof raw['version'] === 'string' ? raw['version'] : '',
    ...(prefix ? { labelPrefix: prefix } : {}),
    phases,
    labelMapping: Object.entries(strings(raw['labelMapping'])),
    labels: {},
    agents,
    rules: {
      maxCycles: num(rules['maxCycles'], 5),
      cycleDelayMs: num(rules['cycleDelayMs'], 10_000),
      maxConsecutivePhases: num(rules['maxConsecutivePhases'], 0),
    },
    commentTemplates: strings(handoff['commentTemplates']),
    ...(prioritizer && typeof prioritizer['agent'] === 'string'
      ? {
          prioritizer: {
            agent: prioritizer['agent'],
            labels: Array.isArray(prioritizer['labels'])
              ? prioritizer['labels'].filter((l): l is string => typeof l === 'string')
              : [],
            ...(typeof prioritizer['defaultLabel'] === 'string' ? { defaultLabel: prioritizer['defaultLabel'] } : {}),
          },
        }
      : {}),
    hash: createHash('sha256').update(text).digest('hex').slice(0, 16),
  };
}
