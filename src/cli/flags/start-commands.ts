/**
 * Flags of the commands that start work: a run, a batch of runs, a label pipeline.
 */
import { OFFLINE_HINT } from '../../host/model-credentials.js';
import { DELIVER_FLAG } from './delivery-flag.js';
import { COMMON_FLAGS, type CommandSpec } from './flag-spec.js';

export const START_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  'start-run': {
    name: 'start-run',
    summary: [
      'Start (or attach to) the run for an issue and wait for its result.',
      'Exit 0 when the run succeeded and delivered, 3 when it ended with nothing to change (outcome no-change:',
      'the issue left open with the reason and the needs-human label), 2 on a usage or configuration error, 1 otherwise.',
    ].join('\n'),
    flags: {
      issue: COMMON_FLAGS.issue,
      agent: COMMON_FLAGS.agent,
      repo: COMMON_FLAGS.repo,
      issues: COMMON_FLAGS.issues,
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
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  'start-batch': {
    name: 'start-batch',
    summary: [
      'Work many issues at once: one child run per issue (Workflow ID <repo-id>/<agent>/issue-<n>, as start-run), at most --concurrency at a time,',
      'labels moved ready → in-progress → done | blocked; prints live progress and the result table. Exit 0 when every issue succeeded.',
      'Without ANTHROPIC_API_KEY set ANTHROPIC_BASE_URL to a Messages-API-compatible server;',
      `${OFFLINE_HINT}.`,
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
      agent: COMMON_FLAGS.agent,
      repo: COMMON_FLAGS.repo,
      issues: COMMON_FLAGS.issues,
      deliver: DELIVER_FLAG,
      follow: {
        type: 'boolean',
        help: 'print live progress (each issue as it starts and ends, counts) until the batch ends',
      },
      detach: { type: 'boolean', help: 'return after starting; needs a running worker (npm run worker)' },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
  watch: {
    name: 'watch',
    summary: [
      'Start (idempotently) the durable watcher of a repository (Workflow ID <repo-id>/watch): an issue with the trigger',
      'label, or a comment mentioning @issue-agent from an author with write access, gets one run (at most --concurrency',
      'at once) with one progress comment edited in place; `@issue-agent cancel|retry <text>|status` act on its run; a',
      'review requesting changes (or a mention on its PR) continues it on the same branch. Returns once started; runs',
      'need a long-lived worker (issue-agent worker). Stop: --stop (running runs go on).',
    ].join('\n'),
    flags: {
      label: {
        type: 'string',
        value: 'NAME',
        help: 'trigger label (default agent, or watch.label in .agent/config.json)',
      },
      concurrency: { type: 'string', value: 'N', help: 'runs at once (default 2, at most 50)' },
      'poll-interval': { type: 'string', value: 'SECONDS', help: 'seconds between polls (default 60)' },
      agent: COMMON_FLAGS.agent,
      repo: COMMON_FLAGS.repo,
      issues: { type: 'string', value: 'local|github', help: 'where issues live (default github)' },
      deliver: DELIVER_FLAG,
      stop: { type: 'boolean', help: "stop the repository's watcher (its runs are left alone)" },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
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
      repo: COMMON_FLAGS.repo,
      issues: {
        type: 'string',
        value: 'local|github',
        help: 'issue source (default: .agent/config.json, else local: .agent/issues/<n>.md in the repository)',
      },
      deliver: DELIVER_FLAG,
      follow: { type: 'boolean', help: "print each pipeline's progress (phase, cycle, agent, outcome) as it changes" },
      detach: { type: 'boolean', help: 'return after starting; needs a running worker (issue-agent worker)' },
      json: COMMON_FLAGS.json,
      help: COMMON_FLAGS.help,
    },
  },
};
