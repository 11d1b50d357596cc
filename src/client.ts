#!/usr/bin/env node
/**
 * The installable command `issue-agent <command> [flags]` (and `npm run <command> -- [flags]`
 * in a clone). Only this file (and worker.ts) exits the process; usage errors exit 2.
 */
import { reportFatal } from './cli/report-error.js';
import { cancelCommand, retryCommand, statusCommand } from './cli/commands/run-control.js';
import { resetCommand } from './cli/commands/reset.js';
import { startRunCommand } from './cli/commands/start-run.js';
import { startBatchCommand } from './cli/commands/start-batch.js';
import { startPipelineCommand } from './cli/commands/start-pipeline.js';
import { validateCommand } from './cli/commands/validate.js';
import { syncLabelsCommand } from './cli/commands/sync-labels.js';
import { initCommand } from './cli/commands/init.js';
import { artifactsCommand } from './cli/commands/artifacts.js';
import { devServerCommand } from './cli/commands/dev-server.js';
import { evalCommand } from './cli/commands/eval.js';
import { workerCommand } from './worker/worker-command.js';
import { packageVersion, PROGRAM_NAME, renderTopLevelHelp } from './cli/program.js';

const HANDLERS: Readonly<Record<string, (argv: readonly string[]) => Promise<number>>> = {
  'start-run': startRunCommand,
  'start-batch': startBatchCommand,
  'start-pipeline': startPipelineCommand,
  status: statusCommand,
  retry: retryCommand,
  cancel: cancelCommand,
  reset: resetCommand,
  validate: validateCommand,
  'sync-labels': syncLabelsCommand,
  init: initCommand,
  artifacts: artifactsCommand,
  worker: workerCommand,
  'dev-server': devServerCommand,
  eval: evalCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${renderTopLevelHelp()}\n`);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const handler = command === undefined ? undefined : HANDLERS[command];
  if (handler === undefined) {
    process.stderr.write(
      `error: unknown command "${command ?? ''}"; expected one of ${Object.keys(HANDLERS).join(', ')} (${PROGRAM_NAME} --help)\n`,
    );
    return 2;
  }
  return handler(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
