/**
 * Builds the API form of a resolved (self-contained) schema: only the keywords the
 * Messages API accepts, every object closed. Required stays as declared: optional
 * properties are legitimate and the API honours them.
 */
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';
import {
  API_MIN_ITEMS,
  API_RENAMED_KEYWORDS,
  API_STRING_FORMATS,
  API_SUPPORTED_KEYWORDS,
  API_UNSUPPORTED_PATTERN,
} from './api-keywords.js';
import { isObjectSchema } from './schema-walk.js';

export function toApiSchema(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [rawKey, value] of Object.entries(schema)) {
    const key = API_RENAMED_KEYWORDS[rawKey] ?? rawKey;
    if (!API_SUPPORTED_KEYWORDS.has(key)) continue;
    const converted = convertKeyword(key, value);
    if (converted !== undefined) out[key] = converted;
  }
  // The API requires closed objects; a schema-valued additionalProperties is not accepted either.
  if (isObjectSchema(out)) out.additionalProperties = false;
  return out;
}

function convertKeyword(key: string, value: JsonValue): JsonValue | undefined {
  switch (key) {
    case 'properties':
      return isJsonObject(value) ? mapSchemas(value) : undefined;
    case 'items':
      return isJsonObject(value) ? toApiSchema(value) : undefined;
    case 'anyOf':
      return Array.isArray(value) ? value.map((v) => (isJsonObject(v) ? toApiSchema(v) : v)) : undefined;
    case 'additionalProperties':
      return undefined; // set by toApiSchema for objects
    case 'format':
      return typeof value === 'string' && API_STRING_FORMATS.has(value) ? value : undefined;
    case 'pattern':
      return typeof value === 'string' && !API_UNSUPPORTED_PATTERN.test(value) ? value : undefined;
    case 'minItems':
      return typeof value === 'number' && API_MIN_ITEMS.has(value) ? value : undefined;
    default:
      return value;
  }
}

function mapSchemas(map: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [name, sub] of Object.entries(map)) out[name] = isJsonObject(sub) ? toApiSchema(sub) : sub;
  return out;
}
