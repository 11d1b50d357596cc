/**
 * Finds (or provisions) the Temporal CLI through scripts/setup-temporal.mjs, the one
 * place that knows the pinned version and the install order; the download goes to
 * `.tools/` in a clone and to the XDG state dir in an installed copy (src/host/state-paths.ts).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { PROJECT_ROOT } from '../project-root.js';
import { toolsDir } from '../state-paths.js';

let cached: string | undefined;

export function resolveTemporalCliPath(): string {
  if (cached !== undefined) return cached;
  try {
    const out = execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'setup-temporal.mjs'), '--quiet'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // An installed copy keeps its download in the XDG state dir, not in the package.
      env: { ...process.env, ISSUE_AGENT_TOOLS_DIR: toolsDir() },
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
