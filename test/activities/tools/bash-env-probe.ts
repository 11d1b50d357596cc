/**
 * Run as a child process whose env holds fake secrets from its start, so that
 * /proc/<pid>/environ of this process really contains them: prints what the bash
 * tool shows for the given command.
 */
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { toolContext } from './tool-fixtures.js';

const command = process.argv[2] ?? 'env';
runBash({ command }, toolContext()).then(
  (result) => process.stdout.write(result.content),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
