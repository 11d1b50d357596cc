/** The cross-reference rules, in report order. Each is small and independent; all run. */
import { agentIdMatchesName, unknownTopLevelKeys } from './rules/file-rules.js';
import { conditionsUseKnownValidators, completionStepsMatchClosures, validatorPatternsKnown } from './rules/completion-rules.js';
import { closureReachable, stepsReachable } from './rules/graph-rules.js';
import { stepPromptsExist, systemPromptExists, unusedPrompts } from './rules/prompt-rules.js';
import type { DefinitionRule } from './rules/rule.js';
import { outputSchemasResolve } from './rules/schema-rules.js';
import { handoffOnInitialStep, intentsAllowedForKind, stepIdEqualsKey, stepKindKnown } from './rules/step-rules.js';
import { allowedIntentsRouted, closingEndsFlow, deadTransitions, transitionShape, transitionTargetsExist } from './rules/transition-rules.js';

export const DEFINITION_RULES: readonly DefinitionRule[] = [
  unknownTopLevelKeys,
  agentIdMatchesName,
  stepIdEqualsKey,
  stepKindKnown,
  intentsAllowedForKind,
  handoffOnInitialStep,
  transitionShape,
  transitionTargetsExist,
  allowedIntentsRouted,
  deadTransitions,
  closingEndsFlow,
  stepsReachable,
  closureReachable,
  outputSchemasResolve,
  systemPromptExists,
  stepPromptsExist,
  unusedPrompts,
  conditionsUseKnownValidators,
  validatorPatternsKnown,
  completionStepsMatchClosures,
];
