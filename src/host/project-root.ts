/**
 * The directory of this package (a clone, or an installed copy under node_modules):
 * the default agent (registry/, prompts/), package.json and scripts/ live there.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
