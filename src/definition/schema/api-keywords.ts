/**
 * What the Messages API's structured outputs accept in a JSON Schema (output_config.format
 * json_schema; see reference/coding-agents-and-messages-api.md §2.4 and the SDK's
 * transform-json-schema): basic types, enum/const, anyOf, required, objects closed with
 * `additionalProperties: false`, arrays with `minItems` 0 or 1, simple `pattern`s and a
 * short list of string formats. Numeric and length constraints, `$schema`/`$id`,
 * definitions (we inline them), examples and defaults are not accepted and are dropped.
 * Keep this list the single place to update when the API grows.
 */

/** Keywords copied to the API form (after their subschemas are converted). */
export const API_SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  'format',
  'pattern',
  'minItems',
]);

/** Renamed keywords: `oneOf` is accepted as `anyOf` (the SDK's transform does the same). */
export const API_RENAMED_KEYWORDS: Readonly<Record<string, string>> = { oneOf: 'anyOf' };

/** String formats the API understands; any other `format` is dropped. */
export const API_STRING_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** The only `minItems` values the API accepts. */
export const API_MIN_ITEMS: ReadonlySet<number> = new Set([0, 1]);

/** Regex features the API rejects in `pattern`: lookarounds and backreferences. */
export const API_UNSUPPORTED_PATTERN = /\(\?[=!]|\(\?<[=!]|\\[1-9]/;
