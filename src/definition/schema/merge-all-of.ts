/**
 * `allOf` flattening, as upstream does it, because per-step schemas override a common
 * base this way: members merge in order (required unioned, properties later-wins, other
 * keys first-wins); then the schema's own keys go on top (its properties replace the
 * base's same-named properties entirely, required unioned, other keys own-wins).
 */
import type { JsonObject, JsonValue } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';

export function mergeMembers(members: readonly JsonObject[]): JsonObject {
  const merged: JsonObject = {};
  for (const member of members) {
    for (const [key, value] of Object.entries(member)) {
      if (key === 'required') merged.required = unionStrings(merged.required, value);
      else if (key === 'properties') merged.properties = { ...asObject(merged.properties), ...asObject(value) };
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

export function mergeOwn(base: JsonObject, own: JsonObject): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(own)) {
    if (key === 'required') merged.required = unionStrings(base.required, value);
    else if (key === 'properties') merged.properties = { ...asObject(base.properties), ...asObject(value) };
    else merged[key] = value;
  }
  return merged;
}

function unionStrings(a: JsonValue | undefined, b: JsonValue | undefined): JsonValue {
  const all = [...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])];
  return [...new Set(all.filter((v): v is string => typeof v === 'string'))];
}

function asObject(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}
