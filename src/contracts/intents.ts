/**
 * Intents and step kinds: the closed vocabulary of the Flow loop (docs/concepts.md#intents,
 * docs/concepts.md#step-kinds).
 * Pure and bundle-safe: imported by workflow code and activities alike.
 */

export const Intent = {
  Next: 'next',
  Repeat: 'repeat',
  Jump: 'jump',
  Handoff: 'handoff',
  Escalate: 'escalate',
  Closing: 'closing',
  Abort: 'abort',
} as const;
export type Intent = (typeof Intent)[keyof typeof Intent];

export const ALL_INTENTS: readonly Intent[] = Object.values(Intent);

export const StepKind = {
  Work: 'work',
  Verification: 'verification',
  Closure: 'closure',
} as const;
export type StepKind = (typeof StepKind)[keyof typeof StepKind];

export const ALL_STEP_KINDS: readonly StepKind[] = Object.values(StepKind);

/**
 * Steps the harness runs itself, never declared by an agent (the registry accepts only
 * StepKind): `environment` writes the setup where detection ends (contracts/agent-setup.ts),
 * read-only, with no GitHub, todo or ask tool.
 */
export const HarnessStepKind = { Environment: 'environment' } as const;
export type HarnessStepKind = (typeof HarnessStepKind)[keyof typeof HarnessStepKind];

/** Any step whose model gets tools: an agent's, or one of the harness's. */
export type ToolStepKind = StepKind | HarnessStepKind;

/**
 * Intents each step kind may declare (docs/concepts.md#intents). `abort` may be declared by any
 * step that wants a way to give up: it ends the run as failed, never successfully.
 */
export const STEP_KIND_INTENTS: Readonly<Record<StepKind, readonly Intent[]>> = {
  work: ['next', 'repeat', 'jump', 'handoff', 'abort'],
  verification: ['next', 'repeat', 'jump', 'escalate', 'abort'],
  closure: ['closing', 'repeat', 'abort'],
};

/** Infers the step kind from the C3L `c2` segment when `stepKind` is absent. */
export function inferStepKind(c2: string): StepKind | undefined {
  switch (c2) {
    case 'initial':
    case 'continuation':
      return 'work';
    case 'verification':
      return 'verification';
    case 'closure':
      return 'closure';
    default:
      return undefined;
  }
}

export function isIntent(value: unknown): value is Intent {
  return typeof value === 'string' && (ALL_INTENTS as readonly string[]).includes(value);
}

export function isStepKind(value: unknown): value is StepKind {
  return typeof value === 'string' && (ALL_STEP_KINDS as readonly string[]).includes(value);
}
