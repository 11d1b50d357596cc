/** Typed reads of a verdict's JSON config with defaults. PURE. */
import type { JsonObject } from '../../contracts/json.js';

export function configNumber(config: JsonObject, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function configString(config: JsonObject, key: string, fallback: string): string {
  const value = config[key];
  return typeof value === 'string' && value !== '' ? value : fallback;
}
