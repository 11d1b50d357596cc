/**
 * The client CLI: `npm run start-run|status|retry|cancel|validate -- [flags]`.
 * Only this file (and worker.ts) exits the process; usage errors exit 2.
 */
import { reportFatal } from './cli/report-error.js';
import { cancelCommand, retryCommand, statusCommand } from './cli/commands/run-control.js';
import { startRunCommand } from './cli/commands/start-run.js';
import { startBatchCommand } from './cli/commands/start-batch.js';
import { validateCommand } from './cli/commands/validate.js';

const HANDLERS: Readonly<Record<string, (argv: readonly string[]) => Promise<number>>> = {
  'start-run': startRunCommand,
  'start-batch': startBatchCommand,
  status: statusCommand,
  retry: retryCommand,
  cancel: cancelCommand,
  validate: validateCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const handler = command === undefined ? undefined : HANDLERS[command];
  if (handler === undefined) {
    process.stderr.write(
      `error: unknown command "${command ?? ''}"; expected one of ${Object.keys(HANDLERS).join(', ')}\n`,
    );
    return 2;
  }
  return handler(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
