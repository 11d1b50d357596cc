/**
 * `npm run dev-server`: the local Temporal dev server in the foreground, with SQLite
 * persistence in .temporal/, the Web UI on http://127.0.0.1:8233 and the project's
 * search attributes registered.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { devServerArgs, DEFAULT_ADDRESS, serverAnswers, STATE_DIR } from '../temporal/ensure-temporal.js';
import { resolveTemporalCliPath } from '../temporal/temporal-cli.js';
import { reportFatal } from '../report-error.js';

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      `Usage: npm run dev-server\n\nStarts temporal server start-dev on ${DEFAULT_ADDRESS} with SQLite in ${STATE_DIR} and the Web UI on 8233.\n`,
    );
    return 0;
  }
  if (await serverAnswers(DEFAULT_ADDRESS)) {
    process.stdout.write(`a Temporal server already answers on ${DEFAULT_ADDRESS}; Web UI http://127.0.0.1:8233\n`);
    return 0;
  }
  mkdirSync(STATE_DIR, { recursive: true });
  const bin = resolveTemporalCliPath();
  process.stdout.write(`starting ${bin} ${devServerArgs().join(' ')}\nWeb UI: http://127.0.0.1:8233\n`);
  const child = spawn(bin, devServerArgs(), { stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
