/**
 * C3L prompt resolution: finds the prompt file of a step (or the system prompt),
 * strips its front matter and substitutes `{uv-name}` variables. Prompt text lives
 * only in files; this module never adds any. Failures are AgentError
 * PROMPT_RESOLUTION naming the step, the file and the variable or paths tried.
 */
import path from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { ResolvePromptInput, ResolvedPrompt } from '../../contracts/activities.js';
import { c3lCandidates } from './c3l-path.js';
import { stripFrontMatter } from './front-matter.js';
import { stripUvPrefix, substituteUv, substituteUvChecked } from './substitute-uv.js';
import { readOptional } from '../load/read-optional.js';

export { substituteUv, substituteUvChecked };

/** Where the system prompt lives when agent.json does not say (agentDir-relative). */
export const DEFAULT_SYSTEM_PROMPT_PATH = 'prompts/system.md';

export interface PromptTemplate {
  /** Text after front matter, before substitution. */
  readonly template: string;
  /** Path relative to the prompts root (`/`-separated). */
  readonly source: string;
  readonly absPath: string;
}

/** Locates and reads the prompt file of `input` without substituting variables (used by `validate`). */
export async function loadPromptTemplate(input: ResolvePromptInput): Promise<PromptTemplate> {
  const tried: string[] = [];
  for (const absPath of candidatePaths(input)) {
    tried.push(absPath);
    const text = await readOptional(absPath, { parentMayBeFile: true });
    if (text !== undefined) {
      const source = path.relative(input.promptsDir, absPath).split(path.sep).join('/');
      return { template: stripFrontMatter(text), source, absPath };
    }
  }
  throw promptError(
    input,
    `prompt file not found; tried: ${tried.join(', ')}`,
    tried[0] ?? input.promptsDir,
    'one of the paths tried',
  );
}

/** Resolves the prompt of `input` with its variables substituted. */
export async function resolveC3lPrompt(input: ResolvePromptInput): Promise<ResolvedPrompt> {
  if (input.sections !== undefined && input.sections.length > 0) {
    const fragments = await resolveSections(input);
    input = { ...input, variables: { ...input.variables, ...fragments }, sections: [] };
  }
  const { template, source, absPath } = await loadPromptTemplate(input);
  for (const declared of input.required) {
    const name = stripUvPrefix(declared);
    const value = input.variables[name];
    if (value === undefined || value === '') {
      throw promptError(
        input,
        `variable '${name}' is ${value === undefined ? 'missing' : 'empty'} (declared in uvVariables) in ${absPath}`,
        absPath,
        `a non-empty value for uv-${name}`,
        name,
      );
    }
  }
  const { text, missing } = substituteUvChecked(template, input.variables);
  const first = missing[0];
  if (first !== undefined) {
    throw promptError(
      input,
      `placeholder {uv-${first}} has no value${missing.length > 1 ? ` (also: ${missing.slice(1).join(', ')})` : ''} in ${absPath}`,
      absPath,
      `a value for uv-${first}`,
      first,
    );
  }
  const trimmed = text.trim();
  if (trimmed === '') throw promptError(input, `prompt file is empty: ${absPath}`, absPath, 'prompt text');
  return { text: trimmed, source };
}

/**
 * Every section fragment, resolved with the step's variables. A fragment whose declared
 * variables are not all there (e.g. project context outside a project) is "": upstream
 * inserts it only when it applies. Any other failure (file gone) is an error.
 */
async function resolveSections(input: ResolvePromptInput): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const section of input.sections ?? []) {
    const applies = section.uvVariables.every((v) => (input.variables[v] ?? '') !== '');
    if (!applies) {
      out[section.variable] = '';
      continue;
    }
    const resolved = await resolveC3lPrompt({
      ...input,
      stepId: section.stepId,
      c2: section.c2,
      c3: section.c3,
      edition: section.edition,
      ...(section.adaptation === undefined ? { adaptation: undefined } : { adaptation: section.adaptation }),
      required: section.uvVariables,
      sections: [],
    });
    out[section.variable] = `${resolved.text}\n`;
  }
  return out;
}

function candidatePaths(input: ResolvePromptInput): string[] {
  if (input.kind === 'system') {
    return [path.resolve(input.agentDir, input.systemPromptPath ?? DEFAULT_SYSTEM_PROMPT_PATH)];
  }
  if (!input.c2 || !input.c3) {
    throw promptError(input, 'step prompt needs c2 and c3', input.promptsDir, 'c2 and c3 of the step');
  }
  const coords = {
    c1: input.c1,
    c2: input.c2,
    c3: input.c3,
    ...(input.edition ? { edition: input.edition } : {}),
    ...(input.adaptation ? { adaptation: input.adaptation } : {}),
  };
  return c3lCandidates(coords).map((rel) => path.join(input.promptsDir, ...rel.split('/')));
}

function promptError(
  input: ResolvePromptInput,
  message: string,
  file: string,
  expected: string,
  variable?: string,
): AgentError {
  const who =
    input.kind === 'system' ? 'system prompt' : `step '${input.stepId ?? `${input.c2 ?? '?'}.${input.c3 ?? '?'}`}'`;
  return new AgentError(FailureType.PromptResolution, `${who}: ${message}`, {
    where: file,
    expected,
    details: { stepId: input.stepId ?? null, file, ...(variable === undefined ? {} : { variable }) },
  });
}
