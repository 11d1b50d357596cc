/** The cross-reference rules, in report order. Each is small and independent; all run. */
import { agentIdMatchesName, unknownTopLevelKeys } from './file-rules.js';
import {
  conditionsUseKnownValidators,
  completionStepsMatchClosures,
  validatorPatternsKnown,
} from './completion-rules.js';
import { closureReachable, stepsReachable } from './graph-rules.js';
import { stepPromptsExist, systemPromptExists, unusedPrompts } from './prompt-rules.js';
import type { DefinitionRule } from './rule.js';
import { outputSchemasResolve } from './schema-rules.js';
import { handoffOnInitialStep, intentsAllowedForKind, stepIdEqualsKey, stepKindKnown } from './step-rules.js';
import {
  allowedIntentsRouted,
  closingEndsFlow,
  deadTransitions,
  transitionShape,
  transitionTargetsExist,
} from './transition-rules.js';

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
