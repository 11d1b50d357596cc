/**
 * Resolves a step's `outputSchemaRef` into a self-contained schema in two forms:
 * `full` (refs inlined, allOf flattened, objects closed; what ajv enforces locally) and
 * `api` (the subset the Messages API's structured outputs accept). In both, `stepId`
 * only asks for a string: the runtime owns and corrects it (runtime-owned.ts).
 * `schema` is a bare name (looked up in `definitions`, then `$defs`, then top level) or
 * a `#/json/pointer` from the file root. Every failure is AgentError SCHEMA_RESOLUTION
 * with `where` = `schemas/<file>#<pointer>`.
 */
import { AgentError } from '../../contracts/errors.js';
import type { ResolveSchemaInput, ResolvedSchema } from '../../contracts/activities.js';
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';
import { toApiSchema } from './api-schema.js';
import { getAtPointer, parsePointer } from './json-pointer.js';
import { RefResolver } from './resolve-refs.js';
import { relaxRuntimeOwnedFields } from './runtime-owned.js';
import { schemaError, schemaWhere } from './schema-error.js';
import { SchemaFileCache } from './schema-file-cache.js';
import { closeObjects, mapSubschemas } from './schema-walk.js';

export interface ResolveSchemaOptions {
  /** Share file reads across several resolutions (one validate run, one activity call). */
  readonly files?: SchemaFileCache;
}

export async function resolveStepSchema(
  input: ResolveSchemaInput,
  options: ResolveSchemaOptions = {},
): Promise<ResolvedSchema> {
  if (input.inline !== undefined) {
    const full = relaxRuntimeOwnedFields(closeObjects(input.inline));
    return { full, api: toApiSchema(full) };
  }
  const files = options.files ?? new SchemaFileCache(input.schemasDir);
  try {
    const file = files.normalise(input.file);
    const root = await files.load(file);
    const { value, pointer } = locate(root, file, input.schema);
    const resolved = await new RefResolver(files).resolve(value, { file, pointer });
    if (!isJsonObject(resolved)) {
      throw schemaError(
        `schema '${input.schema}' is not an object`,
        schemaWhere(file, pointer),
        'a JSON Schema object',
      );
    }
    const full = relaxRuntimeOwnedFields(closeObjects(stripMeta(resolved)));
    return { full, api: toApiSchema(full) };
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    const options = {
      ...(error.where === undefined ? {} : { where: error.where }),
      ...(error.expected === undefined ? {} : { expected: error.expected }),
    };
    throw new AgentError(error.code, `step '${input.stepId}': ${error.message}`, {
      ...options,
      details: { stepId: input.stepId, file: input.file, schema: input.schema },
    });
  }
}

/** Finds the step schema named by `outputSchemaRef.schema` in a loaded file. */
function locate(root: JsonValue, file: string, identifier: string): { value: JsonValue; pointer: string } {
  if (identifier.startsWith('##') || identifier.includes('//')) {
    throw schemaError(
      `malformed schema identifier '${identifier}'`,
      schemaWhere(file, ''),
      "a bare name or '#/json/pointer'",
    );
  }
  if (identifier.startsWith('#')) {
    const pointer = identifier.slice(1);
    let segments: string[];
    try {
      segments = parsePointer(pointer);
    } catch (error) {
      throw schemaError((error as Error).message, schemaWhere(file, pointer), "a pointer such as '#/definitions/name'");
    }
    const found = getAtPointer(root, segments);
    if (!found.found)
      throw schemaError(
        `pointer '${identifier}' not found (no '${found.missing}')`,
        schemaWhere(file, pointer),
        'an existing JSON pointer',
      );
    return { value: found.value, pointer };
  }
  const escaped = identifier.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const container of ['definitions', '$defs'] as const) {
    const group = isJsonObject(root) ? root[container] : undefined;
    const hit = isJsonObject(group) ? group[identifier] : undefined;
    if (hit !== undefined) return { value: hit, pointer: `/${container}/${escaped}` };
  }
  const top = isJsonObject(root) ? root[identifier] : undefined;
  if (top !== undefined) return { value: top, pointer: `/${escaped}` };
  throw schemaError(
    `schema '${identifier}' not found in definitions, $defs or top level`,
    schemaWhere(file, ''),
    `a schema named '${identifier}'`,
  );
}

/** After inlining, definitions and identity keywords only confuse validators and the API. */
function stripMeta(schema: JsonObject): JsonObject {
  const out = mapSubschemas(schema, stripMeta);
  for (const key of ['$schema', '$id', '$defs', 'definitions', '$comment']) delete out[key];
  return out;
}
