import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Reads a captured tool output from test/fixtures/validator-output/. */
export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/validator-output/${name}`, import.meta.url)), 'utf8');
}
