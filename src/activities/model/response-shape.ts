/**
 * Checks an HTTP 200 answer of the Messages API before the step loop trusts it. A
 * proxy or a flaky gateway can answer 200 with HTML, a truncated body or JSON of
 * another shape; that is a transient fault of the endpoint (retried), not a bug of
 * ours (which would end the run as INTERNAL_ERROR).
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { redactedExcerpt, type Redact } from '../edge/secret-redactor.js';
import type { LlmResponse } from './llm-client.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with the body; undefined when it is a usable message. */
export function responseProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'the body is not a JSON object';
  if (!Array.isArray(body['content'])) return '`content` is not an array';
  for (const [i, block] of body['content'].entries()) {
    if (!isRecord(block) || typeof block['type'] !== 'string') return `content[${i}] has no string \`type\``;
    if (block['type'] === 'text' && typeof block['text'] !== 'string') return `content[${i}].text is not a string`;
    if (block['type'] === 'tool_use' && (typeof block['id'] !== 'string' || typeof block['name'] !== 'string'))
      return `content[${i}] is a tool_use without a string id and name`;
  }
  if (body['stop_reason'] !== null && typeof body['stop_reason'] !== 'string')
    return '`stop_reason` is neither a string nor null';
  const usage = body['usage'];
  if (!isRecord(usage) || typeof usage['input_tokens'] !== 'number' || typeof usage['output_tokens'] !== 'number')
    return '`usage` lacks numeric input_tokens/output_tokens';
  return undefined;
}

/**
 * Parses the raw body; a malformed one throws a retryable MODEL_RESPONSE_MALFORMED
 * carrying a redacted, capped excerpt of what was received.
 */
export function parseMessageBody(raw: string, redact: Redact, endpoint: string): LlmResponse {
  let body: unknown;
  let problem: string | undefined;
  try {
    body = JSON.parse(raw);
    problem = responseProblem(body);
  } catch (error) {
    problem = `the body is not JSON (${(error as Error).message})`;
  }
  if (problem === undefined) return body as LlmResponse;
  const excerpt = redactedExcerpt(raw, redact, 300);
  throw new AgentError(
    FailureType.ModelResponseMalformed,
    `the model endpoint ${endpoint} answered HTTP 200 with a malformed body: ${problem}; received: ${JSON.stringify(excerpt)}`,
    { retryable: true, details: { problem, excerpt, bytes: raw.length } },
  );
}
