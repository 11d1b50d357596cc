#!/usr/bin/env node
/**
 * `npm run worker` (= `issue-agent worker`): serves runs on the task queue until
 * SIGINT/SIGTERM. Only this file (and client.ts) exits the process.
 */
import { workerCommand } from './cli/commands/worker-command.js';
import { reportFatal } from './host/report-error.js';

workerCommand(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
