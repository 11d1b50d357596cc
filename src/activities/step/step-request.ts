/**
 * Keeps prompts and schemas out of workflow history: the step activity resolves the step
 * prompt and schema itself, from the run's definition snapshot, so a definition edited
 * mid-run cannot change a running step. A person's answer to the step's question (the
 * `ask` tool) is quoted after the prompt, whichever it is.
 *
 * Resolved inputs (system prompt, step schema) are kept in the worker process, keyed by
 * run and by the resolution input itself: a run resolves each once and every later step
 * of it reuses the result, while another run (or an edited definition, which a new run
 * loads) resolves afresh. Bounded: the oldest entries go first.
 */
import { createHash } from 'node:crypto';
import type {
  QueryStepInput,
  ResolvePromptInput,
  ResolveSchemaInput,
  QueryStepRequest,
} from '../../contracts/activities.js';
import { withOperatorGuidance, withRetryAddendum } from '../../contracts/step-inputs.js';
import type { AnsweredQuestion } from '../../contracts/human-loop.js';
import { HARNESS_TEMPLATES_DIR } from '../model/masked-placeholder.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { resolveC3lPrompt } from '../../definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../../definition/schema/resolve-step-schema.js';

export interface StepInputCache {
  /** The cached value for (scope, input), else `resolve(input)` (a failure is not cached). */
  get<I, O>(scope: string, input: I, resolve: (input: I) => Promise<O>): Promise<O>;
  readonly size: number;
}

export function createStepInputCache(maxEntries = 512): StepInputCache {
  const entries = new Map<string, Promise<unknown>>();
  return {
    get<I, O>(scope: string, input: I, resolve: (input: I) => Promise<O>): Promise<O> {
      const key = createHash('sha256').update(scope).update('\0').update(JSON.stringify(input)).digest('hex');
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
        return hit as Promise<O>;
      }
      const value = resolve(input);
      entries.set(key, value);
      value.catch(() => entries.delete(key));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The step's conversation inputs. The prompt is the given text or the `stepPrompt`
 * resolved here (plus operator guidance); the schema is the `stepSchema` resolved here
 * (once per run with a cache).
 */
export async function toQueryStepRequest(input: QueryStepInput, cache?: StepInputCache): Promise<QueryStepRequest> {
  const once = <I, O>(value: I, resolve: (i: I) => Promise<O>): Promise<O> =>
    cache === undefined ? resolve(value) : cache.get(input.workflowId, value, resolve);
  const {
    system: _system,
    stepPrompt,
    stepSchema,
    guidance: _guidance,
    retryAddendum: _addendum,
    answer: _answer,
    ...rest
  } = input;
  const schemaPromise = once(requiredSchema(input.stepId, stepSchema), resolveStepSchema);
  const [system, schema] = await Promise.all([once(input.system, resolveC3lPrompt), schemaPromise]);
  const prompt = await withAnswer(await stepPromptText(input, stepPrompt), input.answer);
  return { ...rest, systemPrompt: system.text, prompt, schema };
}

/** A person's answer to the step's question, quoted after its prompt (prompts/harness/answer.md). */
export async function withAnswer(text: string, answer: AnsweredQuestion | undefined, dir = HARNESS_TEMPLATES_DIR) {
  if (answer === undefined) return text;
  const template = await readTemplate('answer', dir);
  const quoted = answer.text
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
  return `${text}\n\n${fill(template, { question: answer.question, author: answer.author, quoted }).trim()}`;
}

async function stepPromptText(input: QueryStepInput, stepPrompt: ResolvePromptInput | undefined): Promise<string> {
  if (input.prompt !== undefined) return input.prompt;
  if (stepPrompt === undefined) {
    throw new AgentError(FailureType.PromptResolution, `step "${input.stepId}" has neither a prompt nor a stepPrompt`, {
      where: 'queryStep input',
    });
  }
  const own = (await resolveC3lPrompt(stepPrompt)).text;
  return withOperatorGuidance(withRetryAddendum(own, input.retryAddendum), input.guidance);
}

function requiredSchema(stepId: string, stepSchema: ResolveSchemaInput | undefined): ResolveSchemaInput {
  if (stepSchema !== undefined) return stepSchema;
  throw new AgentError(FailureType.SchemaResolution, `step "${stepId}" has no stepSchema`, {
    where: 'queryStep input',
  });
}
