/**
 * Keeps prompts and schemas out of workflow history. Since 'one-activity-step' the step
 * activity resolves the step prompt and schema itself (no activity of their own). Before,
 * `resolveSchema` recorded only a digest of the step schema; the step query re-resolves
 * the schema and checks the digest, so a schema edited mid-run fails the step as a
 * schema failure (counted toward fail-fast) instead of changing silently. A person's answer
 * to the step's question (the `ask` tool) is quoted after the prompt, whichever it is.
 */
import { createHash } from 'node:crypto';
import type {
  QueryStepInput,
  ResolvedSchema,
  ResolvePromptInput,
  ResolveSchemaInput,
  SchemaDigest,
  StepQueryRequest,
} from '../../contracts/activities.js';
import { withOperatorGuidance, withRetryAddendum } from '../../contracts/step-inputs.js';
import type { AnsweredQuestion } from '../../contracts/human-loop.js';
import { HARNESS_TEMPLATES_DIR } from '../model/masked-placeholder.js';
import { fill, readTemplate } from '../watch/comment-templates.js';
import type { StepInputCache } from './step-input-cache.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { JsonObject } from '../../contracts/json.js';
import { resolveC3lPrompt } from '../../definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../../definition/schema/resolve-step-schema.js';

function digest(schema: JsonObject): { sha256: string; bytes: number } {
  const text = JSON.stringify(schema);
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

export async function resolveSchemaDigest(input: ResolveSchemaInput): Promise<SchemaDigest> {
  const resolved = await resolveStepSchema(input);
  return { ...input, ...digest(resolved.full) };
}

/**
 * The step's conversation inputs. The prompt is the given text or the `stepPrompt`
 * resolved here (plus operator guidance); the schema is the `stepSchema` resolved here
 * (once per run with a cache) or, for histories from before 'one-activity-step', the
 * digest's schema resolved again and checked.
 */
export async function toStepQueryRequest(input: QueryStepInput, cache?: StepInputCache): Promise<StepQueryRequest> {
  const once = <I, O>(value: I, resolve: (i: I) => Promise<O>): Promise<O> =>
    cache === undefined ? resolve(value) : cache.get(input.workflowId, value, resolve);
  const {
    system: _system,
    stepPrompt,
    stepSchema,
    guidance: _guidance,
    retryAddendum: _addendum,
    answer: _answer,
    schema: digestOf,
    ...rest
  } = input;
  const schemaPromise =
    stepSchema !== undefined ? once(stepSchema, resolveStepSchema) : checkedSchema(input.stepId, digestOf);
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

async function checkedSchema(stepId: string, expected: SchemaDigest | undefined): Promise<ResolvedSchema> {
  if (expected === undefined) {
    throw new AgentError(FailureType.SchemaResolution, `step "${stepId}" has neither a schema nor a stepSchema`, {
      where: 'queryStep input',
    });
  }
  const schema = await resolveStepSchema(expected);
  const now = digest(schema.full);
  if (now.sha256 !== expected.sha256) {
    throw new AgentError(
      FailureType.SchemaResolution,
      `the schema of step "${stepId}" changed since the step started`,
      {
        where: `schemas/${expected.file}#${expected.schema}`,
        expected: `sha256 ${expected.sha256.slice(0, 12)}, found ${now.sha256.slice(0, 12)}`,
      },
    );
  }
  return schema;
}
