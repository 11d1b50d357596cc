/** The one error of schema resolution: AgentError SCHEMA_RESOLUTION located at `schemas/<file>#<pointer>`. */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export function schemaError(message: string, where: string, expected?: string): AgentError {
  return new AgentError(
    FailureType.SchemaResolution,
    message,
    expected === undefined ? { where } : { where, expected },
  );
}

/** `schemas/<file>#<pointer>`: where a user looks to fix a schema problem. */
export function schemaWhere(file: string, pointer: string): string {
  return `schemas/${file}#${pointer}`;
}
