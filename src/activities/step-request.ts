/**
 * Keeps prompts and schemas out of workflow history. `resolveSchema` records only a
 * digest of the step schema; the step query re-resolves the schema and the system
 * prompt on the worker and checks the digest, so a schema edited mid-run fails the
 * step as a schema failure (counted toward fail-fast) instead of changing silently.
 */
import { createHash } from 'node:crypto';
import type { QueryStepInput, ResolveSchemaInput, SchemaDigest, StepQueryRequest } from '../contracts/activities.js';
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';
import type { JsonObject } from '../contracts/json.js';
import { resolveC3lPrompt } from '../definition/c3l/resolve-c3l-prompt.js';
import { resolveStepSchema } from '../definition/schema/resolve-step-schema.js';

function digest(schema: JsonObject): { sha256: string; bytes: number } {
  const text = JSON.stringify(schema);
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

export async function resolveSchemaDigest(input: ResolveSchemaInput): Promise<SchemaDigest> {
  const resolved = await resolveStepSchema(input);
  return { ...input, ...digest(resolved.full) };
}

export async function toStepQueryRequest(input: QueryStepInput): Promise<StepQueryRequest> {
  const [system, schema] = await Promise.all([resolveC3lPrompt(input.system), resolveStepSchema(input.schema)]);
  const now = digest(schema.full);
  if (now.sha256 !== input.schema.sha256) {
    throw new AgentError(
      FailureType.SchemaResolution,
      `the schema of step "${input.stepId}" changed since the step started`,
      {
        where: `schemas/${input.schema.file}#${input.schema.schema}`,
        expected: `sha256 ${input.schema.sha256.slice(0, 12)}, found ${now.sha256.slice(0, 12)}`,
      },
    );
  }
  const { system: _system, ...rest } = input;
  return { ...rest, systemPrompt: system.text, schema };
}
