/**
 * The installable command (`issue-agent`, package.json `bin`): its name, version and
 * top-level help. The npm scripts of a clone are aliases of its commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from './flags/command-specs.js';
import { PROJECT_ROOT } from '../host/project-root.js';

export const PROGRAM_NAME = 'issue-agent';

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * A command's summary as one whole sentence for the command list: up to its first full
 * stop, or its first colon (the clause before it, closed with a full stop), never a
 * line cut in the middle.
 */
export function summaryLine(summary: string): string {
  const text = summary.replace(/\s+/g, ' ').trim();
  const end = /[.:](?=\s|$)/.exec(text);
  return end === null ? text : `${text.slice(0, end.index)}.`;
}

export function renderTopLevelHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length)) + 2;
  const lines = [
    `Usage: ${PROGRAM_NAME} <command> [flags]`,
    '',
    'A durable issue agent on Temporal: works one issue of a git repository, step by step,',
    'until deterministic checks pass, then delivers the change.',
    '',
    'Commands:',
  ];
  for (const spec of Object.values(COMMANDS)) {
    lines.push(`  ${spec.name.padEnd(width)}${summaryLine(spec.summary)}`);
  }
  lines.push(
    '',
    'Flags:',
    `  ${'--help'.padEnd(width)}show this help (\`${PROGRAM_NAME} <command> --help\` for a command's flags)`,
    `  ${'--version'.padEnd(width)}print the version`,
    '',
    `In a clone of this project, \`npm run <command> -- [flags]\` runs the same commands.`,
    'Environment: TEMPORAL_ADDRESS (default: start/reuse the local dev server), TEMPORAL_NAMESPACE,',
    'TEMPORAL_TASK_QUEUE, TEMPORAL_UI_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, GITHUB_TOKEN',
  );
  return lines.join('\n');
}
