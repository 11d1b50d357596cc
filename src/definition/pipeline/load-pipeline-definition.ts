/**
 * Loads a label pipeline: read `workflow.json` → JSON-Schema check → every WF-* rule
 * → the agent directories it names (each loaded as an agent definition) → frozen
 * PipelineDefinition with defaults applied and a content hash. Like the agent loader,
 * it never stops at the first problem: a file that fails its schema is still given to
 * the rules (leniently) and its agents are still loaded, so one report lists them all.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import { DefinitionError } from '../definition-error.js';
import { deepFreeze } from '../load/deep-freeze.js';
import { withoutEchoes } from '../load/one-pass.js';
import { parseJsonText } from '../load/read-json-file.js';
import { isError, problem, type Problem } from '../problem.js';
import { buildPipeline } from './build-pipeline.js';
import { loadPipelineAgents } from './pipeline-agents.js';
import { WORKFLOW_RULES } from './rules/all-workflow-rules.js';
import { WfCode } from './wf-codes.js';
import { checkWorkflowFile } from './workflow-schema-check.js';
import { workflowView } from './workflow-view.js';
import { isMissing } from '../load/read-optional.js';

/** Where a repository keeps its pipeline (upstream's default path). */
export const DEFAULT_WORKFLOW_FILE = path.join('.agent', 'workflow.json');

export function defaultWorkflowPath(repoPath: string): string {
  return path.resolve(repoPath, DEFAULT_WORKFLOW_FILE);
}

export type PipelineLoadResult =
  | { readonly ok: true; readonly definition: PipelineDefinition; readonly warnings: Problem[] }
  | { readonly ok: false; readonly problems: Problem[]; readonly warnings: Problem[] };

/** Loads and verifies the pipeline in `workflowPath`. Never throws for a bad file. */
export async function loadPipelineDefinition(workflowPath: string): Promise<PipelineLoadResult> {
  const abs = path.resolve(workflowPath);
  const file = path.basename(abs);
  const read = await readWorkflowText(abs, file);
  if (!read.ok) return { ok: false, problems: [read.problem], warnings: [] };
  const parsed = parseJsonText(read.text);
  if (!parsed.ok) {
    const p = problem({
      code: WfCode.LoadInvalidJson,
      file,
      pointer: '',
      rule: 'valid-json',
      expected: 'valid JSON',
      message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
    });
    return { ok: false, problems: [p], warnings: [] };
  }
  const checked = checkWorkflowFile(parsed.value, file);
  const shape = checked.ok ? [] : checked.problems;
  const view = workflowView(parsed.value, file);
  const ruleProblems = view === undefined ? [] : WORKFLOW_RULES.flatMap((rule) => rule(view));
  const agents = view === undefined ? undefined : await loadPipelineAgents(view, path.dirname(abs));
  const all = [...shape, ...withoutEchoes(ruleProblems, shape), ...(agents?.problems ?? [])];
  const errors = all.filter(isError);
  const warnings = all.filter((p) => !isError(p));
  if (!checked.ok || errors.length > 0 || agents === undefined) {
    return { ok: false, problems: errors, warnings };
  }
  const hash = pipelineHash(read.text, agents.hashes);
  const definition = buildPipeline(checked.value, { path: abs, hash, agentDirs: agents.dirs });
  return { ok: true, definition: deepFreeze(definition), warnings };
}

/** Like loadPipelineDefinition, but throws DefinitionError (code CONFIG_INVALID) listing every error. */
export async function loadPipelineDefinitionOrThrow(workflowPath: string): Promise<PipelineDefinition> {
  const result = await loadPipelineDefinition(workflowPath);
  if (!result.ok) throw new DefinitionError(path.resolve(workflowPath), result.problems, 'workflow file');
  return result.definition;
}

async function readWorkflowText(
  abs: string,
  file: string,
): Promise<{ ok: true; text: string } | { ok: false; problem: Problem }> {
  try {
    return { ok: true, text: await readFile(abs, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const notFound = isMissing(error);
    return {
      ok: false,
      problem: problem({
        code: notFound ? WfCode.LoadNotFound : WfCode.LoadReadFailed,
        file,
        pointer: '',
        rule: 'file-exists',
        expected: 'a readable workflow.json',
        message: notFound ? `file not found: ${abs}` : `cannot read ${abs} (${code ?? 'error'})`,
      }),
    };
  }
}

/** sha256 over the file's text and each agent's definition hash, by agent id. */
function pipelineHash(text: string, agentHashes: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update('workflow.json\0').update(text).update('\0');
  for (const id of [...agentHashes.keys()].sort()) hash.update(`agent:${id}\0${agentHashes.get(id)!}\0`);
  return hash.digest('hex');
}
