/**
 * The path the demo session (`demo/session.json`) takes through the default playbook, as
 * `result.steps` records it (`stepId:intent`): the review escalates once, the second
 * implementation passes it.
 */
export const DEMO_PLAYBOOK: readonly string[] = [
  'initial.understand:next',
  'continuation.reproduce:next',
  'continuation.implement:next',
  'verification.review:escalate',
  'continuation.implement:next',
  'verification.review:next',
  'closure.issue:closing',
];
