/**
 * Flags of every client command: one table feeds parsing, validation and `--help`.
 */
import type { CommandSpec } from './flag-spec.js';
import { CONTROL_COMMANDS } from './control-commands.js';
import { parseFlags, type ParsedFlags } from './parse-flags.js';
import { START_COMMANDS } from './start-commands.js';
import { TOOL_COMMANDS } from './tool-commands.js';

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ...START_COMMANDS,
  ...CONTROL_COMMANDS,
  ...TOOL_COMMANDS,
};

export function renderHelp(spec: CommandSpec): string {
  const lines = [
    `Usage: issue-agent ${spec.name} [flags]${spec.rest === undefined ? '' : ` [${spec.rest.toUpperCase()}]`}`,
    `       npm run ${spec.name} -- [flags]   (in a clone of this project)`,
    '',
    spec.summary,
    '',
    'Flags:',
  ];
  for (const [name, flag] of Object.entries(spec.flags)) {
    const left = `  --${name}${flag.value ? ` ${flag.value}` : ''}`;
    lines.push(`${left.padEnd(30)} ${flag.help}`);
  }
  lines.push(
    '',
    'Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, GITHUB_TOKEN',
  );
  return lines.join('\n');
}

/**
 * A command's flags, parsed strictly; with `--help` its help is printed and the result is
 * undefined (the command then exits 0).
 */
export function commandFlags(name: string, argv: readonly string[]): ParsedFlags | undefined {
  const spec = COMMANDS[name]!;
  const flags = parseFlags(spec, argv);
  if (!flags['help']) return flags;
  process.stdout.write(`${renderHelp(spec)}\n`);
  return undefined;
}
