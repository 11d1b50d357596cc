/**
 * Flags of the project and host commands: init, artifacts, validate, sync-labels, worker, eval, dev-server,
 * model-server.
 */
import { COMMON_FLAGS, type CommandSpec } from './flag-spec.js';

export const TOOL_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  init: {
    name: 'init',
    summary:
      'Scaffold .agent/ in a repository: config.json with the detected test/typecheck/lint commands and a copy of the default agent to edit (nothing is overwritten).',
    flags: { repo: COMMON_FLAGS.repo, help: COMMON_FLAGS.help },
  },
  artifacts: {
    name: 'artifacts',
    summary:
      "List a run's saved outputs (model turns, tool results, validator output) with their paths; --show prints one.",
    flags: {
      issue: COMMON_FLAGS.issue,
      repo: COMMON_FLAGS.repo,
      agent: COMMON_FLAGS.agent,
      show: {
        type: 'string',
        value: 'PATH',
        help: 'print this file (a path from the list, relative or absolute); exit 3 when its content does not match the sha256 in its name',
      },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  validate: {
    name: 'validate',
    summary: [
      'Validate an agent definition and, when the repository has one, its .agent/workflow.json (the label pipeline',
      'and the agent directories beside it); list every problem (exit 2) or a summary (exit 0).',
    ].join('\n'),
    flags: {
      agent: COMMON_FLAGS.agent,
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
      help: COMMON_FLAGS.help,
    },
  },
  'sync-labels': {
    name: 'sync-labels',
    summary: [
      'Create the labels a pipeline (.agent/workflow.json) declares, and update drifted colours and descriptions,',
      'with its labelPrefix applied; reports each label as created, updated, unchanged or failed (exit 1 if any failed).',
    ].join('\n'),
    flags: {
      repo: COMMON_FLAGS.repo,
      workflow: { type: 'string', value: 'PATH', help: 'the workflow file (default: <repo>/.agent/workflow.json)' },
      issues: {
        type: 'string',
        value: 'local|github',
        help: "where the labels live (default: local, .agent/issues/labels.json; github: the repository's labels)",
      },
      'dry-run': { type: 'boolean', help: 'compute what would change; change nothing' },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  worker: {
    name: 'worker',
    summary: [
      'Run a worker for the run workflow on TEMPORAL_TASK_QUEUE (default issue-agent) until SIGINT/SIGTERM.',
      'Uses TEMPORAL_ADDRESS, or starts/reuses the local dev server. Several workers (machines) may share the queue:',
      "each serves its runs' worktrees on <queue>@<host-id>; runs on a remote repository move to another worker when theirs is lost.",
    ].join('\n'),
    flags: {
      'host-id': {
        type: 'string',
        value: 'NAME',
        help: "this worker's host identity in the fleet (env ISSUE_AGENT_HOST_ID; default: the hostname)",
      },
      'state-dir': {
        type: 'string',
        value: 'DIR',
        help: 'clones of remote repositories and their worktrees (env ISSUE_AGENT_STATE_DIR; default: the XDG state dir)',
      },
      help: COMMON_FLAGS.help,
    },
  },
  eval: {
    name: 'eval',
    summary: [
      'Measure the agent over a task file (default eval/tasks.json): each task a repository at a commit, an issue, hidden',
      'checks the agent never sees. Prints per task and mode: delivered, solved, invalid, iterations, tokens, cost, wall time,',
      'why; then totals. Task files: our JSON, or SWE-bench JSONL (instance_id, repo, base_commit, patch, test_patch,',
      'problem_statement, FAIL_TO_PASS, PASS_TO_PASS), whose hidden check is its tests by name after its test_patch.',
      "  --mine REPO           build SWE-bench JSONL tasks from REPO's history (commits changing code and tests whose",
      '                        changed tests fail on the parent with only the test change and pass on the commit)',
      '  --oracle|--no-op|--sabotage   measure the gate with a scripted model per task (no key): it applies the gold patch,',
      '                        changes nothing, or weakens the failing tests; totals: oracle accepted, no-op and sabotage',
      '                        refused, and invalid tasks (the gold patch fails the hidden checks here) reported apart.',
      'Without a mode: ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL (any Messages-API endpoint), or --offline: recorded sessions.',
    ].join('\n'),
    flags: {
      tasks: {
        type: 'string',
        value: 'FILE',
        help: 'the task file: JSON, or SWE-bench JSONL (default: eval/tasks.json of this project)',
      },
      only: { type: 'string', value: 'ID,ID,...', help: 'run only these tasks' },
      oracle: { type: 'boolean', help: "a scripted model applies each task's gold patch with the agent's tools" },
      'no-op': { type: 'boolean', help: 'a scripted model changes nothing and claims done' },
      sabotage: { type: 'boolean', help: 'a scripted model skips or deletes the failing tests instead of fixing' },
      repos: { type: 'string', value: 'DIR', help: 'local clones of SWE-bench repos: DIR/owner__name, DIR/name, ...' },
      'repo-map': { type: 'string', value: 'NAME=PATH,...', help: 'local clones by SWE-bench repo name (owner/name)' },
      concurrency: { type: 'string', value: 'N', help: 'tasks at once (default 2)' },
      agent: COMMON_FLAGS.agent,
      offline: { type: 'boolean', help: "play each task's recorded session on an offline model server (no key)" },
      mine: {
        type: 'string',
        value: 'REPO',
        help: "build tasks from this git repository's history (first parent, newest first)",
      },
      limit: { type: 'string', value: 'N', help: '--mine: tasks to build at most (default 5)' },
      scan: { type: 'string', value: 'N', help: '--mine: candidate commits to verify at most (default 8 x --limit)' },
      'test-command': {
        type: 'string',
        value: 'CMD',
        help: "--mine: the test command (default: the repository's .agent/config.json, else detected per commit)",
      },
      out: { type: 'string', value: 'FILE', help: '--mine: write the JSONL here (default: stdout)' },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  'dev-server': {
    name: 'dev-server',
    summary: 'Start the local Temporal dev server in the foreground (127.0.0.1:7233, Web UI on 8233).',
    flags: { help: COMMON_FLAGS.help },
  },
  'model-server': {
    name: 'model-server',
    summary: [
      'Serve a recorded or scripted model session as a Messages-API-compatible server on 127.0.0.1 and print its URL:',
      'run the agent with ANTHROPIC_BASE_URL=<url> and no key. --record proxies --upstream and writes the session to --out.',
    ].join('\n'),
    flags: {
      session: { type: 'string', value: 'FILE', help: 'the session script (JSON) to play' },
      record: { type: 'boolean', help: 'proxy to --upstream and write what happened to --out' },
      upstream: {
        type: 'string',
        value: 'URL',
        help: 'the real Messages API endpoint (e.g. https://api.anthropic.com)',
      },
      out: { type: 'string', value: 'FILE', help: 'where the recorded session script is written' },
      port: { type: 'string', value: 'N', help: 'the port to listen on (default: a random free port)' },
      help: COMMON_FLAGS.help,
    },
  },
};
