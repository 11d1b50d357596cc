/**
 * Upstream model names (`sonnet`, `opus`, `haiku`, `fable`; agent `runner.flow.defaultModel`
 * and step `model`) → model ids (contracts/models.ts). Any other value is taken as a model
 * id as written; `validate` warns when the price table does not know it.
 */
import { MODEL_ALIASES } from '../../contracts/models.js';

export function modelId(name: string): string {
  return MODEL_ALIASES[name] ?? name;
}
