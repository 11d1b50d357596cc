/** `npm run validate -- [--agent DIR]`: exit 2 listing every problem, or 0 with a summary. */
import { runValidate } from '../../definition/validate-command.js';
import { commandFlags } from '../command-specs.js';
import { agentDirOf, checkAgentDir } from '../run-target.js';

export async function validateCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('validate', argv);
  if (flags === undefined) return 0;
  const dir = agentDirOf(flags);
  await checkAgentDir(dir);
  const { exitCode, text } = await runValidate(dir);
  (exitCode === 0 ? process.stdout : process.stderr).write(`${text}\n`);
  return exitCode;
}
