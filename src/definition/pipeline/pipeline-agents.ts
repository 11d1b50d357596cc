/**
 * The agent directories a workflow.json names, as upstream lays them out: beside the
 * workflow file, `<dir of workflow.json>/<directory ?? id>`. Each must exist, stay
 * inside that directory, and load as an agent definition; its problems are reported
 * with the agent's directory in front of the file and the agent id in the message.
 * The prioritizer's agent is a declared agent or, as in upstream's own workflow.json,
 * just an agent directory (upstream's dispatcher then failed: "Unknown agent id").
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentDefinition } from '../../contracts/definition.js';
import { loadAgentDefinition } from '../load/load-agent-definition.js';
import { pointer, problem, type Problem } from '../problem.js';
import { WfCode } from './wf-codes.js';
import type { WorkflowView } from './workflow-view.js';
import { isStrictlyInside } from '../load/path-inside.js';

export interface LoadedAgents {
  /** Agent id (and the prioritizer's agent) → absolute agent directory; only those that loaded. */
  readonly dirs: ReadonlyMap<string, string>;
  /** Agent id → its definition hash. */
  readonly hashes: ReadonlyMap<string, string>;
  readonly problems: Problem[];
}

interface Wanted {
  readonly id: string;
  readonly dirName: string;
  /** Segments of the pointer that named the directory. */
  readonly at: string[];
  readonly code: string;
}

export async function loadPipelineAgents(view: WorkflowView, workflowDir: string): Promise<LoadedAgents> {
  const wanted: Wanted[] = [...view.agents].map(([id, a]) => ({
    id,
    dirName: a.directory ?? id,
    at: a.directory === undefined ? ['agents', id] : ['agents', id, 'directory'],
    code: WfCode.AgentDirMissing,
  }));
  const prioritizer = view.prioritizer?.agent;
  if (prioritizer !== undefined && !view.agents.has(prioritizer)) {
    wanted.push({
      id: prioritizer,
      dirName: prioritizer,
      at: ['prioritizer', 'agent'],
      code: WfCode.RefUnknownPrioritizerAgent,
    });
  }
  const loads = new Map<string, Promise<Awaited<ReturnType<typeof loadAgentDefinition>>>>();
  const results = await Promise.all(
    wanted.map(async (w) => {
      const dir = path.resolve(workflowDir, w.dirName);
      const rel = path.relative(workflowDir, dir);
      const inside = isStrictlyInside(workflowDir, dir);
      if (!inside || !(await isDirectory(dir))) return { w, dir, rel, missing: true as const };
      let load = loads.get(dir);
      if (load === undefined) loads.set(dir, (load = loadAgentDefinition(dir)));
      return { w, dir, rel, missing: false as const, result: await load };
    }),
  );
  const dirs = new Map<string, string>();
  const hashes = new Map<string, string>();
  const problems: Problem[] = [];
  for (const r of results) {
    if (r.missing) {
      problems.push(missingDir(view.file, r.w, r.dir, workflowDir));
      continue;
    }
    const { result } = r;
    const prefix = (p: Problem): Problem => ({
      ...p,
      file: `${r.rel.split(path.sep).join('/')}/${p.file}`,
      message: `agent '${r.w.id}': ${p.message}`,
    });
    problems.push(...(result.ok ? [] : result.problems).map(prefix), ...result.warnings.map(prefix));
    if (result.ok) {
      dirs.set(r.w.id, r.dir);
      hashes.set(r.w.id, (result.definition as AgentDefinition).hash);
    }
  }
  return { dirs, hashes, problems };
}

function missingDir(file: string, w: Wanted, dir: string, workflowDir: string): Problem {
  return problem({
    code: w.code,
    file,
    pointer: pointer(...w.at),
    rule: 'agent-directory-exists',
    expected: `an agent directory (agent.json, steps_registry.json, prompts/) inside ${workflowDir}`,
    message: `agent '${w.id}': no agent directory at ${dir}`,
  });
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
