/** The cross-reference rules, in report order. Each is small and independent; all run. */
import { agentIdMatchesName, unknownTopLevelKeys } from './file-rules.js';
import {
  conditionsUseKnownValidators,
  completionStepsMatchClosures,
  validatorExtractorsKnown,
  validatorPatternsKnown,
} from './completion-rules.js';
import { closureReachable, stepsReachable } from './graph-rules.js';
import { stepPromptsExist, systemPromptExists, unusedPrompts } from './prompt-rules.js';
import type { DefinitionRule } from './rule.js';
import { boundariesMapped } from './boundary-rules.js';
import { modelsKnown } from './model-rules.js';
import { flowStepsComplete, inputsReadKnownSteps, runnerStepsValid, stepMachineGated } from './step-shape-rules.js';
import { sectionPromptsExist } from './prompt-rules.js';
import { promptVariablesBound } from './prompt-variable-rules.js';
import { verdictHandlerPresent } from './verdict-handler-rules.js';
import { retryTemplatesValid } from './retry-template-rules.js';
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
  flowStepsComplete,
  stepMachineGated,
  runnerStepsValid,
  inputsReadKnownSteps,
  boundariesMapped,
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
  sectionPromptsExist,
  unusedPrompts,
  promptVariablesBound,
  retryTemplatesValid,
  verdictHandlerPresent,
  conditionsUseKnownValidators,
  validatorPatternsKnown,
  validatorExtractorsKnown,
  completionStepsMatchClosures,
  modelsKnown,
];
