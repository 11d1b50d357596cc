/**
 * The patch ledger: every id the workflows pass to `patched()` or `deprecatePatch()`, one
 * closed set. A patch keeps a changed command sequence replayable for runs recorded before
 * the change; its id lands in history as a marker, so it never changes once shipped.
 *
 * Call sites write `patched(PATCHES.<key>.id)`, or `deprecatePatch(…)` once the old branch is
 * gone; test/workflows/patch-ledger.test.ts fails on an id not written that way, on an id
 * missing here, on an entry no code uses, and on a deprecation some history still needs.
 * Per entry: `added` (the date of the first `git log -S'<id>'`), `reason` (what the new path
 * does), histories in test/fixtures/histories: `with` (recorded with the marker, proving the
 * new path) and `without` (every one that reaches the call without the marker, so replays
 * the old branch; empty: no history needs it), and when it `retires`. CONTRIBUTING.md says
 * how to add, record and retire one.
 */

/**
 * When the old branch goes. Ids from before the first release go at it (0.1.0 is unreleased:
 * no user's run carries one); later ones are deprecated a release after the one that ships
 * them and removed a release after that (CONTRIBUTING.md).
 */
export type Retirement = 'at first release' | `deprecate in ${string}, remove in ${string}`;
const AT_FIRST_RELEASE = 'at first release';

export interface PatchEntry {
  /** The marker's id in history: kebab-case, never changed or reused once recorded. */
  readonly id: string;
  readonly added: `${number}-${number}-${number}`;
  /** One sentence: what runs do behind the patch that runs recorded before it did not. */
  readonly reason: string;
  readonly histories: { readonly with: readonly string[]; readonly without: readonly string[] };
  readonly retires: Retirement;
}

export const PATCHES = {
  askAndWait: {
    id: 'ask-and-wait',
    added: '2026-11-27',
    reason: 'The ask tool ends a step and the run waits for an answer before running it again.',
    histories: { with: ['ask-and-wait.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  budgetPauseNotice: {
    id: 'budget-pause-notice',
    added: '2026-11-27',
    reason: 'A budget pause is shown as what the run waits for and posted once on the issue.',
    histories: { with: ['budget-pause-notice.json'], without: ['budget-pause-timeout.json'] },
    retires: AT_FIRST_RELEASE,
  },
  budgetPauseTimeout: {
    id: 'budget-pause-timeout',
    added: '2026-11-24',
    reason:
      'An exhausted budget nobody raises within the pause timeout ends the run stopped instead of waiting forever.',
    histories: { with: ['budget-pause-timeout.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  completionViaClosure: {
    id: 'completion-via-closure',
    added: '2026-11-23',
    reason:
      'A met completion criterion sends the flow to a closure step, whose validated closing alone reaches delivery.',
    histories: {
      with: ['demo-success-one-activity-step.json'],
      without: ['demo-success.json', 'never-passing-tests.json'],
    },
    retires: AT_FIRST_RELEASE,
  },
  environmentPhase: {
    id: 'environment-phase',
    added: '2026-11-24',
    reason: 'The run prepares the environment and preflights the worktree before the first model call.',
    histories: {
      with: ['demo-success-environment-phase.json'],
      without: [
        'demo-success.json',
        'demo-success-one-activity-step.json',
        'demo-success-sparse-attributes.json',
        'never-passing-tests.json',
      ],
    },
    retires: AT_FIRST_RELEASE,
  },
  localConfigActivities: {
    id: 'local-config-activities',
    added: '2026-11-25',
    reason: "The run's start loads the definition and system prompt as local activities (two fewer workflow tasks).",
    histories: {
      with: ['demo-success-local-config.json'],
      without: [
        'budget-pause-timeout.json',
        'demo-continue-as-new-first.json',
        'demo-success.json',
        'demo-success-environment-phase.json',
        'demo-success-one-activity-step.json',
        'demo-success-progress-comment.json',
        'demo-success-sparse-attributes.json',
        'never-passing-tests.json',
        'remote-host-lost.json',
        'signal-cancel.json',
        'verdict-retry-prompt.json',
      ],
    },
    retires: AT_FIRST_RELEASE,
  },
  noChangeOutcome: {
    id: 'no-change-outcome',
    added: '2026-11-26',
    reason: 'A run whose branch has no change against its base ends no-change, never success.',
    histories: { with: ['no-change-declared.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  oneActivityStep: {
    id: 'one-activity-step',
    added: '2026-11-23',
    reason: 'A plain model step is one activity that resolves its own prompt and schema.',
    histories: {
      with: ['demo-success-one-activity-step.json'],
      without: ['demo-success.json', 'never-passing-tests.json'],
    },
    retires: AT_FIRST_RELEASE,
  },
  pipelineBranchHandover: {
    id: 'pipeline-branch-handover',
    added: '2026-11-24',
    reason: "The label pipeline hands the issue's branch to each phase's agent with a recorded activity.",
    histories: { with: ['pipeline-branch-handover.json'], without: ['pipeline-validator-loop.json'] },
    retires: AT_FIRST_RELEASE,
  },
  progressComment: {
    id: 'progress-comment',
    added: '2026-11-24',
    reason: 'A run started with the setting keeps one progress comment on its issue up to date.',
    histories: { with: ['demo-success-progress-comment.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  remoteRehome: {
    id: 'remote-rehome',
    added: '2026-11-24',
    reason: "A remote repository's run whose host stops taking work moves to another worker at its last checkpoint.",
    histories: { with: ['remote-host-lost.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  retryPromptSurvivesSchemaFailure: {
    id: 'retry-prompt-survives-schema-failure',
    added: '2026-11-24',
    reason: 'A retry prompt or guidance survives a schema failure of the step that carried it.',
    histories: { with: ['verdict-retry-prompt.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  runContinueAsNew: {
    id: 'run-continue-as-new',
    added: '2026-11-24',
    reason: 'A run continues as new between iterations once its history passes the event bound.',
    histories: { with: ['demo-continue-as-new-first.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  runStatusIsOutcome: {
    id: 'run-status-is-outcome',
    added: '2026-11-23',
    reason: 'A failed run ends FAILED and a cancelled one CANCELLED instead of completing with the result.',
    histories: { with: ['budget-pause-timeout.json', 'signal-cancel.json'], without: ['never-passing-tests.json'] },
    retires: AT_FIRST_RELEASE,
  },
  signalCancelEndsCancelled: {
    id: 'signal-cancel-ends-cancelled',
    added: '2026-11-24',
    reason: 'A run stopped by the cancel signal alone requests its own cancellation and ends CANCELLED.',
    histories: { with: ['signal-cancel.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
  sparseSearchAttributes: {
    id: 'sparse-search-attributes',
    added: '2026-11-23',
    reason: 'Tokens and cost alone upsert the search attributes at most every 15 s of workflow time.',
    histories: {
      with: ['demo-success-sparse-attributes.json'],
      without: ['demo-success.json', 'demo-success-one-activity-step.json', 'never-passing-tests.json'],
    },
    retires: AT_FIRST_RELEASE,
  },
  verdictBeforeDelivery: {
    id: 'verdict-before-delivery',
    added: '2026-11-26',
    reason: 'Under externalState the verdict comes before any delivery effect.',
    histories: { with: ['external-state-verdict-first.json'], without: ['external-state-deliver-first.json'] },
    retires: AT_FIRST_RELEASE,
  },
  verdictRetryPrompt: {
    id: 'verdict-retry-prompt',
    added: '2026-11-24',
    reason: 'A verdict that does not accept a validated closing sends a retry prompt to the next step.',
    histories: { with: ['verdict-retry-prompt.json', 'external-state-verdict-first.json'], without: [] },
    retires: AT_FIRST_RELEASE,
  },
} as const satisfies Record<string, PatchEntry>;

export type PatchKey = keyof typeof PATCHES;
export type PatchId = (typeof PATCHES)[PatchKey]['id'];
