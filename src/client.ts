#!/usr/bin/env node
/**
 * The installable command `issue-agent <command> [flags]` (and `npm run <command> -- [flags]`
 * in a clone). Only this file (and worker.ts) exits the process; usage errors exit 2.
 */
import { reportFatal } from './host/report-error.js';
import { packageVersion, PROGRAM_NAME, renderTopLevelHelp } from './cli/program.js';
import { commandFlags } from './cli/flags/command-specs.js';
import { CONTROL_COMMANDS } from './cli/flags/control-commands.js';
import { requireIssue } from './cli/flags/parse-flags.js';

type Handler = (argv: readonly string[]) => Promise<number>;

/**
 * Each command's module is imported when it runs: loading all of them cost every command
 * (`worker` included, before it polls) the others' dependencies, ~0.3 s.
 */
const HANDLERS: Readonly<Record<string, () => Promise<Handler>>> = {
  'start-run': async () => (await import('./cli/commands/start-run.js')).startRunCommand,
  'start-batch': async () => (await import('./cli/commands/start-batch.js')).startBatchCommand,
  'start-pipeline': async () => (await import('./cli/commands/start-pipeline.js')).startPipelineCommand,
  watch: async () => (await import('./cli/commands/watch-command.js')).watchCommand,
  status: async () => (await import('./cli/commands/run-control.js')).statusCommand,
  retry: async () => (await import('./cli/commands/run-control.js')).retryCommand,
  cancel: async () => (await import('./cli/commands/run-control.js')).cancelCommand,
  extend: async () => (await import('./cli/commands/extend-reply.js')).extendCommand,
  reply: async () => (await import('./cli/commands/extend-reply.js')).replyCommand,
  reset: async () => (await import('./cli/commands/reset.js')).resetCommand,
  validate: async () => (await import('./cli/commands/validate.js')).validateCommand,
  'sync-labels': async () => (await import('./cli/commands/sync-labels.js')).syncLabelsCommand,
  init: async () => (await import('./cli/commands/init.js')).initCommand,
  artifacts: async () => (await import('./cli/commands/artifacts.js')).artifactsCommand,
  worker: async () => (await import('./cli/commands/worker-command.js')).workerCommand,
  'dev-server': async () => (await import('./cli/commands/dev-server.js')).devServerCommand,
  eval: async () => (await import('./cli/commands/eval.js')).evalCommand,
  'model-server': async () => (await import('./cli/commands/model-server-subcommand.js')).modelServerCommand,
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
  const load = command === undefined ? undefined : HANDLERS[command];
  if (command === undefined || load === undefined) {
    process.stderr.write(
      `error: unknown command "${command ?? ''}"; expected one of ${Object.keys(HANDLERS).join(', ')} (${PROGRAM_NAME} --help)\n`,
    );
    return 2;
  }
  if (!checkedBeforeLoading(command, rest)) return 0;
  return (await load())(rest);
}

/**
 * A command on one run (status, retry, cancel, extend, reply, reset) has its flags and
 * --issue checked before its module loads, the same checks it makes itself: that module
 * brings the Temporal client and the definition loader (~0.5 s of CPU), which `--help`
 * and a usage error never need. False: the help was printed.
 */
function checkedBeforeLoading(command: string, argv: readonly string[]): boolean {
  if (!Object.hasOwn(CONTROL_COMMANDS, command)) return true;
  const flags = commandFlags(command, argv);
  if (flags === undefined) return false;
  requireIssue(flags);
  return true;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
