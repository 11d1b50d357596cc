/**
 * The runtime owns a step's `stepId` (docs/concepts.md#gate): a model that
 * reports another one is corrected, never rejected. Upstream schemas often pin it with
 * `const` (or a one-value `enum`); left in place, the local schema check and the
 * provider's constrained decoding would reject (or force) the answer before the Flow
 * could correct it. So both schema forms only ask for a string there; the workflow
 * then sets the canonical value and logs `[StepFlow] stepId corrected`.
 */
import type { JsonObject } from '../../contracts/json.js';
import { isJsonObject } from '../../contracts/json.js';

const PINNING = ['const', 'enum', 'pattern', 'minLength', 'maxLength', 'format'];
const BRANCHES = ['allOf', 'anyOf', 'oneOf'];

function relaxStepIdProperty(schema: JsonObject): JsonObject {
  const properties = schema['properties'];
  const stepId = isJsonObject(properties) ? properties['stepId'] : undefined;
  if (!isJsonObject(properties) || !isJsonObject(stepId)) return schema;
  if (!PINNING.some((k) => k in stepId)) return schema;
  const relaxed: JsonObject = { type: 'string' };
  if (typeof stepId['description'] === 'string') relaxed['description'] = stepId['description'];
  return { ...schema, properties: { ...properties, stepId: relaxed } };
}

/** The step schema with `stepId` (top level and top-level branches) relaxed to any string. */
export function relaxRuntimeOwnedFields(schema: JsonObject): JsonObject {
  const out = relaxStepIdProperty(schema);
  let changed = out !== schema;
  const result: JsonObject = { ...out };
  for (const key of BRANCHES) {
    const list = out[key];
    if (!Array.isArray(list)) continue;
    const mapped = list.map((branch) => (isJsonObject(branch) ? relaxStepIdProperty(branch) : branch));
    if (mapped.some((b, i) => b !== list[i])) {
      result[key] = mapped;
      changed = true;
    }
  }
  return changed ? result : schema;
}
