/**
 * `issue-agent dev-server` (`npm run dev-server`): the local Temporal dev server in the
 * foreground, with SQLite persistence in the state dir, the Web UI on
 * http://127.0.0.1:8233 and the project's search attributes registered.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { devServerArgs, DEFAULT_ADDRESS, serverAnswers, STATE_DIR } from '../../host/temporal/ensure-temporal.js';
import { resolveTemporalCliPath } from '../../host/temporal/temporal-cli.js';
import { commandFlags } from '../flags/command-specs.js';

export async function devServerCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('dev-server', argv);
  if (flags === undefined) return 0;
  if (await serverAnswers(DEFAULT_ADDRESS)) {
    process.stderr.write(`a Temporal server already answers on ${DEFAULT_ADDRESS}; Web UI http://127.0.0.1:8233\n`);
    return 0;
  }
  mkdirSync(STATE_DIR, { recursive: true });
  const bin = resolveTemporalCliPath();
  process.stderr.write(`starting ${bin} ${devServerArgs().join(' ')}\nWeb UI: http://127.0.0.1:8233\n`);
  const child = spawn(bin, devServerArgs(), { stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
}
