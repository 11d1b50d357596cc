/**
 * A consider → detail → implement pipeline written by the test: `<tmp>/.agent/workflow.json`
 * and three small agent directories beside it (copies of the valid upstream-vocabulary
 * fixture, renamed). `edit` changes the workflow before it is written.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, editJson, tempDir, writeJson } from '../temp-dirs.js';

export const AGENT_IDS = ['considerer', 'detailer', 'implementer'] as const;

export function pipelineWorkflow(): Record<string, any> {
  return {
    version: '1.0.0',
    labelPrefix: 'docs',
    phases: {
      'impl-pending': { type: 'actionable', priority: 1, agent: 'implementer' },
      'detail-pending': { type: 'actionable', priority: 2, agent: 'detailer' },
      'consider-pending': { type: 'actionable', priority: 3, agent: 'considerer' },
      done: { type: 'terminal' },
      blocked: { type: 'blocking' },
    },
    labelMapping: {
      'kind:impl': 'impl-pending',
      'kind:detail': 'detail-pending',
      'kind:consider': 'consider-pending',
      done: 'done',
      'need clearance': 'blocked',
    },
    labels: {
      'kind:impl': { color: 'A2EEEF', description: 'Implementation work' },
      'kind:detail': { color: 'fbca04', description: 'Specification detailing' },
      'kind:consider': { color: 'bfd4f2', description: 'Consideration' },
      done: { color: '0e8a16', description: 'Work completed' },
      'need clearance': { color: 'd93f0b', description: 'Blocked: needs a human' },
      'order:1': { color: 'c2e0c6', description: 'Work order 1' },
      'order:2': { color: 'c2e0c6', description: 'Work order 2' },
    },
    agents: {
      considerer: {
        role: 'validator',
        outputPhases: { done: 'done', 'handoff-detail': 'detail-pending' },
        fallbackPhase: 'blocked',
        closeOnComplete: true,
        closeCondition: 'done',
      },
      detailer: {
        role: 'validator',
        directory: 'detail-agent',
        outputPhases: { 'handoff-impl': 'impl-pending', blocked: 'blocked' },
        fallbackPhase: 'blocked',
      },
      implementer: {
        role: 'transformer',
        outputPhase: 'done',
        fallbackPhases: { 'needs-detail': 'detail-pending' },
        fallbackPhase: 'blocked',
        closeOnComplete: true,
      },
    },
    handoff: {
      commentTemplates: { considererHandoffDetail: '## Specification requested\n\n{final_summary}' },
    },
    prioritizer: { agent: 'considerer', labels: ['order:1', 'order:2'], defaultLabel: 'order:2' },
  };
}

export interface PipelineRepo {
  readonly root: string;
  readonly agentDir: string;
  readonly workflowPath: string;
}

/** Writes the pipeline (optionally edited) and its three agents; returns the paths. */
export function writePipelineRepo(edit?: (workflow: Record<string, any>) => void): PipelineRepo {
  const root = tempDir('pipeline-');
  const agentDir = path.join(root, '.agent');
  const workflow = pipelineWorkflow();
  edit?.(workflow);
  writeJson(agentDir, 'workflow.json', workflow);
  const dirs: Record<string, string> = {
    considerer: 'considerer',
    detailer: 'detail-agent',
    implementer: 'implementer',
  };
  for (const id of AGENT_IDS) {
    const dir = path.join(agentDir, dirs[id]!);
    cpSync(path.join(FIXTURES, 'valid', 'upstream-vocabulary'), dir, { recursive: true });
    editJson(dir, 'agent.json', (a) => {
      a.name = id;
      // As docs/pipelines.md advises: the pipeline, not the agent, closes the issue.
      a.runner.integrations.github.defaultClosureAction = 'label-only';
    });
    editJson(dir, 'steps_registry.json', (r) => {
      r.agentId = id;
    });
  }
  return { root, agentDir, workflowPath: path.join(agentDir, 'workflow.json') };
}
