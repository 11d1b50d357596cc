/**
 * Flags of every client command: one table feeds parsing, validation and `--help`.
 */
import { DELIVER_FLAG } from './delivery-flag.js';
import { parseFlags, type ParsedFlags } from './parse-flags.js';

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly help: string;
  readonly value?: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
}

const common = {
  issue: { type: 'string', value: 'N', help: 'issue number (a positive integer); required' },
  agent: {
    type: 'string',
    value: 'NAME|DIR',
    help: "agent: a name under <repo>/.agent/agents/, or a directory (default: .agent/config.json's agent, else the built-in one)",
  },
  repo: { type: 'string', value: 'PATH', help: 'target git repository (default: the current directory)' },
  json: { type: 'boolean', help: 'print JSON only on stdout (human text goes to stderr)' },
  help: { type: 'boolean', help: 'show this help' },
} as const satisfies Record<string, FlagSpec>;

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  'start-run': {
    name: 'start-run',
    summary: 'Start (or attach to) the run for an issue and wait for its result.',
    flags: {
      issue: common.issue,
      agent: common.agent,
      repo: { type: 'string', value: 'PATH', help: 'target git repository (default: the current directory)' },
      issues: {
        type: 'string',
        value: 'local|github',
        help: 'issue source (default: local, .agent/issues/<n>.md in the repository)',
      },
      deliver: DELIVER_FLAG,
      follow: {
        type: 'boolean',
        help: 'print live progress (step, iteration, phase, tokens) until the run ends (NDJSON with --json)',
      },
      detach: { type: 'boolean', help: 'return after starting; needs a running worker (issue-agent worker)' },
      force: { type: 'boolean', help: 'work the issue even when it is closed' },
      'budget-usd': {
        type: 'string',
        value: 'USD',
        help: 'run budget in US dollars; the run pauses when it is reached',
      },
      'budget-tokens': { type: 'string', value: 'N', help: 'run budget in tokens; the run pauses when it is reached' },
      'max-iterations': { type: 'string', value: 'N', help: "override the agent's iteration cap" },
      json: common.json,
      help: common.help,
    },
  },
  'start-batch': {
    name: 'start-batch',
    summary: [
      'Work many issues at once: one child run per issue (Workflow ID <repo-id>/<agent>/issue-<n>, as start-run), at most --concurrency at a time,',
      'labels moved ready → in-progress → done | blocked; prints live progress and the result table. Exit 0 when every issue succeeded.',
      'Without ANTHROPIC_API_KEY set ANTHROPIC_BASE_URL to a Messages-API-compatible server;',
      '`npm run model-server -- --session demo/session.json` gives an offline one.',
    ].join('\n'),
    flags: {
      label: {
        type: 'string',
        value: 'NAME',
        help: 'work every open issue with this label (the "ready" label; default ready with --issue-list)',
      },
      'issue-list': {
        type: 'string',
        value: 'N,N,...',
        help: 'work exactly these issues instead (comma-separated numbers)',
      },
      concurrency: { type: 'string', value: 'N', help: 'child runs at once (default 3, at most 100)' },
      agent: common.agent,
      repo: { type: 'string', value: 'PATH', help: 'target git repository (default: the current directory)' },
      issues: {
        type: 'string',
        value: 'local|github',
        help: 'issue source (default: local, .agent/issues/<n>.md in the repository)',
      },
      deliver: DELIVER_FLAG,
      follow: {
        type: 'boolean',
        help: 'print live progress (each issue as it starts and ends, counts) until the batch ends',
      },
      detach: { type: 'boolean', help: 'return after starting; needs a running worker (npm run worker)' },
      json: common.json,
      help: common.help,
    },
  },
  'start-pipeline': {
    name: 'start-pipeline',
    summary: [
      'Run the label pipeline of .agent/workflow.json (or --workflow) over an issue: a durable parent workflow',
      "(Workflow ID <repo-id>/pipeline-<id>/issue-<n>) reads the labels, dispatches the phase's agent as a child run,",
      'moves the labels, posts the handoff comment, closes when the definition says, and repeats until a terminal or',
      'blocking phase or a limit. --label runs one pipeline per open issue with that label, in priority order;',
      '--prioritize runs the prioritizer agent and applies its priority labels. Exit 0 iff every pipeline completed.',
    ].join('\n'),
    flags: {
      issue: { type: 'string', value: 'N', help: 'run the pipeline over this issue' },
      label: {
        type: 'string',
        value: 'NAME',
        help: 'batch: one pipeline per open issue with this label whose labels resolve to an actionable phase',
      },
      concurrency: { type: 'string', value: 'N', help: 'batch: pipelines at once (default 3, at most 100)' },
      prioritize: {
        type: 'boolean',
        help: 'run the prioritizer agent over the open issues (--label narrows them), apply its priority labels, exit',
      },
      workflow: {
        type: 'string',
        value: 'PATH',
        help: 'the pipeline definition (default: <repo>/.agent/workflow.json)',
      },
      repo: common.repo,
      issues: {
        type: 'string',
        value: 'local|github',
        help: 'issue source (default: .agent/config.json, else local: .agent/issues/<n>.md in the repository)',
      },
      deliver: DELIVER_FLAG,
      follow: { type: 'boolean', help: "print each pipeline's progress (phase, cycle, agent, outcome) as it changes" },
      detach: { type: 'boolean', help: 'return after starting; needs a running worker (issue-agent worker)' },
      json: common.json,
      help: common.help,
    },
  },
  status: {
    name: 'status',
    summary: 'Show the state of the run for an issue.',
    flags: { issue: common.issue, repo: common.repo, agent: common.agent, json: common.json, help: common.help },
  },
  retry: {
    name: 'retry',
    summary: 'Signal the run to retry; an optional prompt is guidance added to the next step prompt.',
    flags: {
      issue: common.issue,
      repo: common.repo,
      agent: common.agent,
      prompt: { type: 'string', value: 'TEXT', help: 'guidance added to the next step prompt the model sees' },
      help: common.help,
    },
  },
  cancel: {
    name: 'cancel',
    summary: 'Cancel the run gracefully: the running step stops, the worktree is kept.',
    flags: {
      issue: common.issue,
      repo: common.repo,
      agent: common.agent,
      reason: { type: 'string', value: 'TEXT', help: 'why (recorded in the result)' },
      help: common.help,
    },
  },
  reset: {
    name: 'reset',
    summary: [
      'Reset the run of an issue to right after its step K (a Temporal reset): steps 1..K stay in history, step K+1 runs next,',
      "and the worktree goes back to step K's checkpoint (files, branch commits, index) before it does. Works on a live, failed",
      'or completed run whose worktree still exists; signals sent after step K are not re-applied.',
    ].join('\n'),
    flags: {
      issue: common.issue,
      repo: common.repo,
      agent: common.agent,
      'to-step': {
        type: 'string',
        value: 'K',
        help: 'the step to go back to: its number in the run (1 = the first step; see `status --json`, steps[].iteration); required',
      },
      reason: { type: 'string', value: 'TEXT', help: 'why (recorded with the reset in the run history)' },
      help: common.help,
    },
  },
  init: {
    name: 'init',
    summary:
      'Scaffold .agent/ in a repository: config.json with the detected test/typecheck/lint commands and a copy of the default agent to edit (nothing is overwritten).',
    flags: { repo: common.repo, help: common.help },
  },
  artifacts: {
    name: 'artifacts',
    summary:
      "List a run's saved outputs (model turns, tool results, validator output) with their paths; --show prints one.",
    flags: {
      issue: common.issue,
      repo: common.repo,
      agent: common.agent,
      show: { type: 'string', value: 'PATH', help: 'print this file (a path from the list, relative or absolute)' },
      json: common.json,
      help: common.help,
    },
  },
  validate: {
    name: 'validate',
    summary: [
      'Validate an agent definition and, when the repository has one, its .agent/workflow.json (the label pipeline',
      'and the agent directories beside it); list every problem (exit 2) or a summary (exit 0).',
    ].join('\n'),
    flags: {
      agent: common.agent,
      workflow: {
        type: 'string',
        value: 'PATH',
        help: 'validate this workflow.json and the agent directories it names (alone, unless --agent is given too)',
      },
      repo: {
        type: 'string',
        value: 'PATH',
        help: 'repository whose .agent/workflow.json is validated too (default: the current directory)',
      },
      json: { type: 'boolean', help: 'print one JSON report on stdout instead of text' },
      help: common.help,
    },
  },
  'sync-labels': {
    name: 'sync-labels',
    summary: [
      'Create the labels a pipeline (.agent/workflow.json) declares, and update drifted colours and descriptions,',
      'with its labelPrefix applied; reports each label as created, updated, unchanged or failed (exit 1 if any failed).',
    ].join('\n'),
    flags: {
      repo: common.repo,
      workflow: { type: 'string', value: 'PATH', help: 'the workflow file (default: <repo>/.agent/workflow.json)' },
      issues: {
        type: 'string',
        value: 'local|github',
        help: "where the labels live (default: local, .agent/issues/labels.json; github: the repository's labels)",
      },
      'dry-run': { type: 'boolean', help: 'compute what would change; change nothing' },
      json: common.json,
      help: common.help,
    },
  },
  worker: {
    name: 'worker',
    summary: [
      'Run a worker for the run workflow on TEMPORAL_TASK_QUEUE (default issue-agent) until SIGINT/SIGTERM.',
      'Uses TEMPORAL_ADDRESS, or starts/reuses the local dev server.',
    ].join('\n'),
    flags: { help: common.help },
  },
  eval: {
    name: 'eval',
    summary: [
      'Run the agent over an eval task file (default eval/tasks.json): each task a repository at a commit, an issue,',
      'hidden checks the agent never sees. Prints per task: solved, iterations, tokens, cost, wall time; then totals.',
      'Uses ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL (any Messages-API endpoint), or --offline: recorded sessions.',
    ].join('\n'),
    flags: {
      tasks: { type: 'string', value: 'FILE', help: 'the task file (default: eval/tasks.json of this project)' },
      only: { type: 'string', value: 'ID,ID,...', help: 'run only these tasks' },
      concurrency: { type: 'string', value: 'N', help: 'tasks at once (default 2)' },
      agent: common.agent,
      offline: { type: 'boolean', help: "play each task's recorded session on an offline model server (no key)" },
      json: common.json,
      help: common.help,
    },
  },
  'dev-server': {
    name: 'dev-server',
    summary: 'Start the local Temporal dev server in the foreground (127.0.0.1:7233, Web UI on 8233).',
    flags: { help: common.help },
  },
};

export function renderHelp(spec: CommandSpec): string {
  const lines = [
    `Usage: issue-agent ${spec.name} [flags]`,
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
