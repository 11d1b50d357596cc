/** `npm run validate -- [--agent DIR]`: exit 2 listing every problem, or 0 with a summary. */
import { runValidate } from '../../definition/validate-command.js';
import { COMMANDS, renderHelp } from '../command-specs.js';
import { parseFlags } from '../parse-flags.js';
import { agentDirOf, checkAgentDir } from '../run-target.js';

export async function validateCommand(argv: readonly string[]): Promise<number> {
  const spec = COMMANDS['validate']!;
  const flags = parseFlags(spec, argv);
  if (flags['help']) {
    process.stdout.write(`${renderHelp(spec)}\n`);
    return 0;
  }
  const dir = agentDirOf(flags);
  await checkAgentDir(dir);
  const { exitCode, text } = await runValidate(dir);
  (exitCode === 0 ? process.stdout : process.stderr).write(`${text}\n`);
  return exitCode;
}
