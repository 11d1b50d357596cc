/**
 * The `ask` tool (issue 40): the model asks the people on the issue one question,
 * optionally with the answers it offers, instead of guessing. It runs nothing: a
 * checked call ends the step's tool loop at once (query-step.ts), with no further model
 * call; the workflow posts the question on the issue and waits, durably, for an answer,
 * and the step runs again with the answer quoted in its prompt. A bad call is an error
 * result the model can fix, like any other tool's.
 */
import { MAX_CHOICES, MAX_QUESTION_CHARS, type AskedQuestion } from '../../contracts/human-loop.js';
import type { LlmToolDefinition } from '../model/llm-client.js';
import { ToolName } from './tool-types.js';

export const ASK_TOOL: LlmToolDefinition = {
  type: 'custom',
  name: ToolName.Ask,
  description:
    'Ask the people on the issue one question when you cannot go on without their decision or information ' +
    '(an ambiguous requirement, a choice only they can make). The step stops here; it continues, possibly days ' +
    'later, with their answer quoted in your prompt. Do not ask what you can find out from the code, its tests ' +
    'or the issue. Give "choices" when the answer is one of a few options.',
  input_schema: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'the question, self-contained: the reader has not seen your work' },
      choices: { type: 'array', items: { type: 'string' }, description: 'the answers you offer (optional)' },
    },
    required: ['question'],
  },
};

export type CheckedAsk =
  { readonly ok: true; readonly question: AskedQuestion } | { readonly ok: false; readonly error: string };

const bad = (error: string): CheckedAsk => ({ ok: false, error: `Error: ${error}` });

/** An `ask` call's input: a non-blank question, at most MAX_CHOICES non-blank choices. PURE. */
export function checkAsk(input: Readonly<Record<string, unknown>>): CheckedAsk {
  const question = input['question'];
  if (typeof question !== 'string' || question.trim() === '') return bad('ask needs a non-empty "question" string.');
  if (question.length > MAX_QUESTION_CHARS)
    return bad(`the question is ${question.length} characters long; ask it in at most ${MAX_QUESTION_CHARS}.`);
  const choices = input['choices'];
  if (choices === undefined || choices === null) return { ok: true, question: { question: question.trim() } };
  if (!Array.isArray(choices) || choices.some((c) => typeof c !== 'string' || c.trim() === ''))
    return bad('"choices" must be a list of non-empty strings.');
  if (choices.length > MAX_CHOICES) return bad(`offer at most ${MAX_CHOICES} choices.`);
  const list = (choices as string[]).map((c) => c.trim().slice(0, 500));
  return { ok: true, question: { question: question.trim(), ...(list.length === 0 ? {} : { choices: list }) } };
}
