/**
 * Prompt files: the system prompt and every step's C3L prompt must exist; prompt
 * files no step can use are reported as warnings (they are usually renamed leftovers).
 * `system.md` and retry prompts (`<c1>/retry/**`, chosen at runtime by failure
 * pattern) are never "unused".
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { c3lCandidates } from '../c3l/c3l-path.js';
import { problem, warning, type Problem } from '../problem.js';
import type { LoadContext } from '../load/load-context.js';
import { DEFAULT_RETRY_C2 } from '../normalise/normalise-completion.js';
import type { DefinitionRule } from './rule.js';

export const systemPromptExists: DefinitionRule = async (ctx) => {
  const abs = path.resolve(ctx.layout.agentDir, ctx.settings.systemPromptPath);
  try {
    await access(abs);
    return [];
  } catch {
    return [
      problem({
        code: 'SYSTEM_PROMPT_MISSING',
        file: ctx.agentFile,
        pointer: '/runner/flow/systemPromptPath',
        rule: 'system-prompt-exists',
        expected: `a file at ${abs}`,
        message: `system prompt '${ctx.settings.systemPromptPath}' not found`,
      }),
    ];
  }
};

export const stepPromptsExist: DefinitionRule = (ctx) => {
  const present = new Set(ctx.promptFiles);
  const problems: Problem[] = [];
  // A runner step runs a subprocess, not a prompt.
  for (const step of ctx.steps.filter((s) => s.raw.runner === undefined)) {
    const candidates = c3lCandidates(coordinates(ctx, step.definition));
    if (candidates.some((c) => present.has(c))) continue;
    problems.push(
      problem({
        code: 'PROMPT_FILE_MISSING',
        file: ctx.registryFile,
        pointer: step.pointer,
        rule: 'step-prompt-exists',
        expected: candidates.map((c) => `prompts/${c}`).join(' or '),
        message: `no prompt file for step '${step.key}'`,
      }),
    );
  }
  return problems;
};

/** A `section.*` fragment must exist too: other prompts include its text. */
export const sectionPromptsExist: DefinitionRule = (ctx) =>
  ctx.sections
    .filter((s) => !c3lCandidates(coordinates(ctx, s.definition)).some((c) => ctx.promptFiles.includes(c)))
    .map((s) =>
      problem({
        code: 'PROMPT_FILE_MISSING',
        file: ctx.registryFile,
        pointer: s.pointer,
        rule: 'section-prompt-exists',
        expected: c3lCandidates(coordinates(ctx, s.definition))
          .map((c) => `prompts/${c}`)
          .join(' or '),
        message: `no prompt file for section '${s.key}'`,
      }),
    );

/**
 * The harness's own wording beside the step prompts (comments it posts, the placeholder of
 * a masked tool output): read by the worker, never selected by a step.
 */
const HARNESS_TEMPLATE_DIRS = ['comments/', 'harness/'];

export const unusedPrompts: DefinitionRule = (ctx) => {
  const systemRel = path
    .relative(ctx.layout.promptsDir, path.resolve(ctx.layout.agentDir, ctx.settings.systemPromptPath))
    .split(path.sep)
    .join('/');
  const used = (file: string): boolean =>
    file === systemRel ||
    file === 'system.md' ||
    HARNESS_TEMPLATE_DIRS.some((dir) => file.startsWith(dir)) ||
    !file.endsWith('.md') ||
    file.startsWith(`${ctx.c1}/${DEFAULT_RETRY_C2}/`) ||
    ctx.completionSteps.some((c) => file.startsWith(`${ctx.c1}/${c.definition.c2}/${c.definition.c3}/`)) ||
    ctx.steps.some((s) => isVariantOf(file, ctx, s.definition)) ||
    ctx.sections.some((s) => isVariantOf(file, ctx, s.definition));
  return ctx.promptFiles
    .filter((f) => !used(f))
    .map((f) =>
      warning({
        code: 'PROMPT_FILE_UNUSED',
        file: `${path.relative(ctx.layout.agentDir, ctx.layout.promptsDir).split(path.sep).join('/')}/${f}`,
        pointer: '',
        rule: 'prompt-files-used',
        expected: 'a step whose c1/c2/c3/edition select this file',
        message: `prompt file is not used by any step`,
      }),
    );
};

/** Any adaptation of the step's edition counts: closure adaptations are chosen at runtime. */
function isVariantOf(file: string, ctx: LoadContext, d: C3lStep): boolean {
  const dir = `${ctx.c1}/${d.c2}/${d.c3}/`;
  if (!file.startsWith(dir)) return false;
  const name = file.slice(dir.length);
  return name === `f_${d.edition}.md` || (name.startsWith(`f_${d.edition}_`) && !name.includes('/'));
}

interface C3lStep {
  readonly c2: string;
  readonly c3: string;
  readonly edition: string;
  readonly adaptation?: string;
}

function coordinates(
  ctx: LoadContext,
  d: C3lStep,
): { c1: string; c2: string; c3: string; edition: string; adaptation?: string } {
  return {
    c1: ctx.c1,
    c2: d.c2,
    c3: d.c3,
    edition: d.edition,
    ...(d.adaptation === undefined ? {} : { adaptation: d.adaptation }),
  };
}
