/**
 * Keyword-aware traversal of a JSON Schema: applies a function to every subschema
 * while leaving data-valued keywords (`enum`, `const`, `default`, `examples`, property
 * *names*) alone. Used by the passes that close objects and build the API form.
 */
import type { JsonObject } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';

/** Keywords whose value is one subschema. */
const SINGLE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
/** Keywords whose value is an array of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** Returns a copy of `schema` with `fn` applied to each direct subschema. */
export function mapSubschemas(schema: JsonObject, fn: (sub: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = { ...schema };
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (value === undefined) continue;
    if (SINGLE.includes(key) && isJsonObject(value)) out[key] = fn(value);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((v) => (isJsonObject(v) ? fn(v) : v));
    else if (MAP.includes(key) && isJsonObject(value)) out[key] = mapValues(value, fn);
  }
  return out;
}

function mapValues(map: JsonObject, fn: (sub: JsonObject) => JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(map)) out[name] = isJsonObject(value) ? fn(value) : value;
  return out;
}

/** True when the schema describes an object (declared type or properties). */
export function isObjectSchema(schema: JsonObject): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isJsonObject(schema.properties);
}

/** Closes every object schema that does not declare `additionalProperties` (upstream §1.4 step 3). */
export function closeObjects(schema: JsonObject): JsonObject {
  const inner = mapSubschemas(schema, closeObjects);
  if (isObjectSchema(inner) && !('additionalProperties' in inner)) inner.additionalProperties = false;
  return inner;
}
