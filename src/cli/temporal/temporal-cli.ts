/**
 * Finds (or provisions) the Temporal CLI through scripts/setup-temporal.mjs, the one
 * place that knows the pinned version and the install order.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentError } from '../../contracts/errors.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

let cached: string | undefined;

export function resolveTemporalCliPath(): string {
  if (cached !== undefined) return cached;
  try {
    const out = execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'setup-temporal.mjs'), '--quiet'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const path = out.trim().split('\n').pop();
    if (!path) throw new Error('setup-temporal printed no path');
    cached = path;
    return path;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new AgentError(
      'TEMPORAL_CLI_MISSING',
      `could not provision the Temporal CLI: ${stderr.trim() || String(err)}`,
      {
        where: 'TEMPORAL_CLI_PATH',
        expected: 'an executable temporal CLI, or python3/go to install one',
      },
    );
  }
}
