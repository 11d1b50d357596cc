/**
 * Loads an agent definition: read → parse → config.json overlay → JSON-Schema check →
 * normalise → cross-reference rules → frozen AgentDefinition. Every problem is
 * collected and reported together, in one pass: a file that fails its JSON Schema is
 * still normalised (leniently) and given to every rule, so shape errors do not hide
 * graph or prompt errors (one-pass.ts: a rule that cannot read a malformed part is
 * skipped, and a rule's problem under a shape error's pointer is not repeated).
 */
import path from 'node:path';
import type { AgentDefinition, CompletionStepDefinition, SectionDefinition } from '../../contracts/definition.js';
import type { StepDefinition } from '../../contracts/definition.js';
import { detectLayout, registryPath, relativeToAgent, type AgentLayout } from './agent-layout.js';
import { checkAgentFile, checkRegistryFile } from '../file-schemas/config-schema-check.js';
import { deepFreeze } from './deep-freeze.js';
import { DefinitionError } from '../definition-error.js';
import { hashDefinitionFiles, listFiles, uniqueFiles, type DefinitionFiles } from './definition-files.js';
import { DEFINITION_RULES } from '../rules/all-rules.js';
import type { LoadContext } from './load-context.js';
import { normaliseAgent } from '../normalise/normalise-agent.js';
import { normaliseCompletion } from '../normalise/normalise-completion.js';
import { normaliseSections, normaliseSteps } from '../normalise/normalise-steps.js';
import { formatProblem, isError, type Problem } from '../problem.js';
import type { RawAgentFile, RawRegistryFile } from './raw-files.js';
import { readJsonFile } from './read-json-file.js';
import { resolveEntry } from '../normalise/resolve-entry.js';
import { applyConfigOverlay } from './config-overlay.js';
import { lenient, runRulesLeniently, withoutEchoes } from './one-pass.js';
import { readOnlyByAllowedTools } from '../rules/boundary-rules.js';
import { SchemaFileCache } from '../schema/schema-file-cache.js';
import type { DefinitionOverrides } from '../../contracts/repo-config.js';
import { applyOverrides, overridesHash } from './apply-overrides.js';
import { verdictHandlerFiles } from './verdict-handler-files.js';

export { DefinitionError };
export type { Problem };

export const DEFAULT_C1 = 'steps';

/**
 * `files`: every file the definition is made of (a run's snapshot copies them).
 * `parameters` of a failed load: the declared ones when agent.json could be read, so a
 * command line still parses and the command reports the definition's problems.
 */
export type LoadResult =
  | { readonly ok: true; readonly definition: AgentDefinition; readonly files: DefinitionFiles; warnings: Problem[] }
  | { readonly ok: false; readonly problems: Problem[]; readonly warnings: Problem[]; parameters?: Declared };

type Declared = AgentDefinition['parameters'];

/** Loads and verifies the agent in `agentDir` (either layout). Never throws for a bad definition. */
export async function loadAgentDefinition(agentDir: string, overrides?: DefinitionOverrides): Promise<LoadResult> {
  const layout = await detectLayout(agentDir);
  const files = await readFiles(layout);
  if (files.agent && overrides) files.agent = applyOverrides(files.agent, overrides);
  const agent = files.agent ?? files.lenientAgent;
  const registry = files.registry ?? files.lenientRegistry;
  const ruleProblems =
    agent === undefined || registry === undefined
      ? undefined
      : await runRulesLeniently(
          () => buildContext(layout, agent, registry, files.overlayFiles ?? []),
          DEFINITION_RULES,
        );
  const problems = [...files.problems, ...withoutEchoes(ruleProblems?.problems ?? [], files.problems)];
  const result = split(problems);
  if (!result.ok || ruleProblems?.ctx === undefined || !files.agent || !files.registry) {
    const parameters = files.agent && ruleProblems?.ctx ? { parameters: ruleProblems.ctx.settings.parameters } : {};
    // Without both files (or with a shape error) there is always at least one error.
    return result.ok ? { ok: false, problems, warnings: [], ...parameters } : { ...result, ...parameters };
  }
  const ctx = ruleProblems.ctx;
  const { definition, files: definitionFiles } = await assemble(ctx, result.warnings, overrides);
  return { ok: true, definition, files: definitionFiles, warnings: result.warnings };
}

/** Like loadAgentDefinition, but throws DefinitionError (code CONFIG_INVALID) listing every error. */
export async function loadAgentDefinitionOrThrow(
  agentDir: string,
  overrides?: DefinitionOverrides,
): Promise<AgentDefinition> {
  const result = await loadAgentDefinition(agentDir, overrides);
  if (!result.ok) throw new DefinitionError(path.resolve(agentDir), result.problems);
  return result.definition;
}

interface ReadFiles {
  agent?: RawAgentFile;
  registry?: RawRegistryFile;
  registryFile: string;
  problems: Problem[];
  overlayFiles?: string[];
  /** A file that failed its schema, given to the rules anyway when its core is an object. */
  lenientAgent?: RawAgentFile;
  lenientRegistry?: RawRegistryFile;
}

async function readFiles(layout: AgentLayout): Promise<ReadFiles> {
  const problems: Problem[] = [];
  const agentFile = relativeToAgent(layout, layout.agentPath);
  const agentRead = await readJsonFile(layout.agentPath, agentFile);
  const out: ReadFiles = { registryFile: '', problems };
  if (agentRead.ok) {
    const overlay = await applyConfigOverlay(
      agentRead.value,
      path.dirname(layout.agentPath),
      path.dirname(agentFile).replace(/^\.$/, ''),
    );
    problems.push(...overlay.problems);
    out.overlayFiles = overlay.files;
    const checked = checkAgentFile(overlay.value, agentFile);
    if (checked.ok) out.agent = checked.value;
    else {
      problems.push(...checked.problems);
      out.lenientAgent = lenient<RawAgentFile>(overlay.value, 'runner');
    }
  } else problems.push(agentRead.problem);
  // Even when agent.json is broken, check the registry it names (or the default) too.
  const regAbs = registryPath(layout, agentRead.ok ? registryNameOf(agentRead.value) : undefined);
  out.registryFile = relativeToAgent(layout, regAbs);
  const registryRead = await readJsonFile(regAbs, out.registryFile);
  if (registryRead.ok) {
    const checked = checkRegistryFile(registryRead.value, out.registryFile);
    if (checked.ok) out.registry = checked.value;
    else {
      problems.push(...checked.problems);
      out.lenientRegistry = lenient<RawRegistryFile>(registryRead.value, 'steps');
    }
  } else problems.push(registryRead.problem);
  return out;
}

function registryNameOf(agent: unknown): string | undefined {
  let node: unknown = agent;
  for (const key of ['runner', 'flow', 'prompts', 'registry']) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

async function buildContext(
  layout: AgentLayout,
  agent: RawAgentFile,
  registry: RawRegistryFile,
  overlayFiles: readonly string[],
): Promise<{ ctx: LoadContext; problems: Problem[] }> {
  const agentFile = relativeToAgent(layout, layout.agentPath);
  const registryFile = relativeToAgent(layout, registryPath(layout, agent.runner.flow?.prompts?.registry));
  const { settings, problems } = normaliseAgent(agent, agentFile);
  const steps = normaliseSteps(registry);
  const stepIds = new Set(steps.map((s) => s.key));
  const entry = resolveEntry(registry, settings.verdictTypeName, stepIds, registryFile);
  const completion = normaliseCompletion(registry, settings.validationCommands, registryFile);
  problems.push(...entry.problems, ...completion.problems);
  const ctx: LoadContext = {
    layout,
    overlayFiles,
    agentFile,
    registryFile,
    agent,
    registry,
    schemaFiles: new SchemaFileCache(layout.schemasDir),
    promptFiles: await listFiles(layout.promptsDir),
    settings,
    c1: registry.c1 ?? DEFAULT_C1,
    steps,
    sections: normaliseSections(registry),
    stepIds,
    entry: entry.entry,
    validators: completion.validators,
    failurePatterns: completion.failurePatterns,
    completionSteps: completion.completionSteps,
  };
  return { ctx, problems };
}

function split(
  problems: readonly Problem[],
): { ok: false; problems: Problem[]; warnings: Problem[] } | { ok: true; warnings: Problem[] } {
  const errors = problems.filter(isError);
  const warnings = problems.filter((p) => !isError(p));
  return errors.length > 0 ? { ok: false, problems: errors, warnings } : { ok: true, warnings };
}

/** Only called without errors: every step has a kind and the entry exists. */
async function assemble(
  ctx: LoadContext,
  warnings: readonly Problem[],
  overrides: DefinitionOverrides | undefined,
): Promise<{ definition: AgentDefinition; files: DefinitionFiles }> {
  const { layout, settings } = ctx;
  const steps: Record<string, StepDefinition> = {};
  const readOnlyAgent = readOnlyByAllowedTools(ctx.agent.runner.boundaries?.allowedTools);
  for (const s of ctx.steps) {
    steps[s.key] = {
      ...s.definition,
      stepKind: s.stepKind ?? 'work',
      readOnly: s.definition.readOnly || readOnlyAgent,
    };
  }
  const sections: Record<string, SectionDefinition> = {};
  for (const s of ctx.sections) sections[s.key] = s.definition;
  const completionSteps: Record<string, CompletionStepDefinition> = {};
  for (const c of ctx.completionSteps) completionSteps[c.key] = c.definition;
  const schemaFiles = (await listFiles(layout.schemasDir)).map((f) => path.join(layout.schemasDir, f));
  const promptFiles = ctx.promptFiles.map((f) => path.join(layout.promptsDir, f));
  const registryAbs = path.join(layout.agentDir, ctx.registryFile);
  const files = uniqueFiles([
    layout.agentPath,
    ...ctx.overlayFiles,
    registryAbs,
    ...schemaFiles,
    ...promptFiles,
    path.resolve(layout.agentDir, settings.systemPromptPath),
    ...verdictHandlerFiles(layout.agentDir, settings.verdict),
  ]);
  const filesHash = await hashDefinitionFiles(layout.agentDir, files);
  const hash = overridesHash(filesHash, overrides);
  const definition = deepFreeze<AgentDefinition>({
    name: settings.name,
    displayName: settings.displayName,
    version: settings.version,
    description: settings.description,
    agentDir: layout.agentDir,
    promptsDir: layout.promptsDir,
    schemasDir: layout.schemasDir,
    hash,
    parameters: settings.parameters,
    verdict: settings.verdict,
    maxIterations: settings.maxIterations,
    systemPromptPath: settings.systemPromptPath,
    c1: ctx.c1,
    entryStep: ctx.entry?.stepId ?? '',
    steps,
    ...(ctx.sections.length === 0 ? {} : { sections }),
    ...(settings.closureAdaptation === undefined ? {} : { closureAdaptation: settings.closureAdaptation }),
    completionSteps,
    validators: ctx.validators.defined,
    failurePatterns: ctx.failurePatterns,
    model: settings.model,
    closureAction: settings.closureAction,
    completionLabels: settings.completionLabels,
    ...(settings.githubTool === undefined ? {} : { githubTool: settings.githubTool }),
    worktree: settings.worktree,
    warnings: warnings.map(formatProblem),
  });
  return { definition, files: { root: layout.agentDir, files, hash: filesHash } };
}
