/**
 * The shape of a command's flags and the flags most commands share: one table per
 * command (command-specs) feeds parsing, validation and `--help`.
 */

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly help: string;
  readonly value?: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** Words after the flags, joined with spaces into this flag (`reply --issue 3 TEXT`); absent: none allowed. */
  readonly rest?: string;
}

export const COMMON_FLAGS = {
  issue: { type: 'string', value: 'N', help: 'issue number (a positive integer); required' },
  agent: {
    type: 'string',
    value: 'NAME|DIR',
    help: "agent: a name under <repo>/.agent/agents/, or a directory (default: .agent/config.json's agent, else the built-in one)",
  },
  repo: {
    type: 'string',
    value: 'PATH|URL',
    help: 'target git repository: a checkout (default: the current directory) or a git URL (https, ssh, file://)',
  },
  issues: {
    type: 'string',
    value: 'local|github',
    help: 'issue source (default: local, .agent/issues/<n>.md in the repository)',
  },
  json: { type: 'boolean', help: 'print JSON only on stdout (human text goes to stderr)' },
  help: { type: 'boolean', help: 'show this help' },
} as const satisfies Record<string, FlagSpec>;
