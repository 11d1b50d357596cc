/**
 * Keeps prompts and schemas out of workflow history: the step activity resolves the step
 * prompt and schema itself, from the run's definition snapshot, so a definition edited
 * mid-run cannot change a running step. A person's answer to the step's question (the
 * `ask` tool) is quoted after the prompt, whichever it is.
 */
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
import type { StepInputCache } from './step-input-cache.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { resolveC3lPrompt } from '../../definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../../definition/schema/resolve-step-schema.js';

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
