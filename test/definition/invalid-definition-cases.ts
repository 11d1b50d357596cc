/**
 * The bad-input corpus as a table: each case is the valid upstream-vocabulary agent
 * (test/fixtures/definitions/valid/upstream-vocabulary) with a few edits that break
 * exactly one rule, and the problem {code, file, pointer} it must give (plus
 * `alsoCodes` when one break inherently implies another).
 *
 * Edits: `patch` sets or removes values at JSON pointers of a JSON file; `json` or
 * `text` writes a whole file; `replace` swaps the first occurrence of a text (syntax
 * errors); `delete` removes a file.
 */
import type { DefinitionMutation } from './mutate-definition.js';

export const INVALID_DEFINITIONS: readonly DefinitionMutation[] = [
  {
    name: 'agent-id-mismatch',
    expected: { code: 'AGENT_ID_MISMATCH', file: 'steps_registry.json', pointer: '/agentId' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/agentId', value: 'goodbye' }] }],
  },
  {
    name: 'agent-json-syntax',
    expected: { code: 'JSON_PARSE', file: 'agent.json', pointer: '' },
    edits: [{ file: 'agent.json', replace: ['"name": "hello",', '"name": "hello"'] }],
  },
  {
    name: 'agent-name-missing',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/name', alsoCodes: ['AGENT_ID_MISMATCH'] },
    edits: [{ file: 'agent.json', patch: [{ remove: '/name' }] }],
  },
  {
    name: 'agent-name-pattern',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/name', alsoCodes: ['AGENT_ID_MISMATCH'] },
    edits: [{ file: 'agent.json', patch: [{ set: '/name', value: 'Hello' }] }],
  },
  {
    name: 'check-budget-without-max-checks',
    expected: { code: 'VERDICT_MAX_CHECKS', file: 'agent.json', pointer: '/runner/verdict/config/maxChecks' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/type', value: 'count:check' }] }],
  },
  {
    name: 'closure-grace-negative',
    expected: { code: 'VERDICT_CLOSURE_GRACE', file: 'agent.json', pointer: '/runner/verdict/config/closureGrace' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/config/closureGrace', value: -1 }] }],
  },
  {
    name: 'closure-action-invalid',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/runner/integrations/github/defaultClosureAction' },
    edits: [
      { file: 'agent.json', patch: [{ set: '/runner/integrations/github/defaultClosureAction', value: 'delete' }] },
    ],
  },
  {
    name: 'completion-step-in-both-vocabularies',
    expected: { code: 'VOCABULARY_CONFLICT', file: 'steps_registry.json', pointer: '/validationSteps/closure.done' },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          {
            set: '/completionSteps',
            value: { 'closure.done': { completionConditions: [{ validator: 'git-clean' }] } },
          },
        ],
      },
    ],
  },
  {
    name: 'composite-bad-operator',
    expected: { code: 'VERDICT_COMPOSITE_OPERATOR', file: 'agent.json', pointer: '/runner/verdict/config/operator' },
    edits: [
      {
        file: 'agent.json',
        patch: [
          { set: '/runner/verdict/type', value: 'composite' },
          { remove: '/runner/verdict/config/maxIterations' },
          { set: '/runner/verdict/config/operator', value: 'xor' },
          {
            set: '/runner/verdict/config/conditions',
            value: [{ type: 'count:iteration', config: { maxIterations: 5 } }],
          },
        ],
      },
    ],
  },
  {
    name: 'composite-child-config',
    expected: {
      code: 'VERDICT_MAX_CHECKS',
      file: 'agent.json',
      pointer: '/runner/verdict/config/conditions/0/config/maxChecks',
    },
    edits: [
      {
        file: 'agent.json',
        patch: [
          { set: '/runner/verdict/type', value: 'meta:composite' },
          { remove: '/runner/verdict/config/maxIterations' },
          { set: '/runner/verdict/config/operator', value: 'first' },
          { set: '/runner/verdict/config/conditions', value: [{ type: 'count:check', config: { maxChecks: 0 } }] },
        ],
      },
    ],
  },
  {
    name: 'composite-child-type',
    expected: {
      code: 'VERDICT_COMPOSITE_CHILD',
      file: 'agent.json',
      pointer: '/runner/verdict/config/conditions/1/type',
    },
    edits: [
      {
        file: 'agent.json',
        patch: [
          { set: '/runner/verdict/type', value: 'meta:composite' },
          { remove: '/runner/verdict/config/maxIterations' },
          { set: '/runner/verdict/config/operator', value: 'or' },
          {
            set: '/runner/verdict/config/conditions',
            value: [{ type: 'detect:keyword', config: { verdictKeyword: 'DONE' } }, { type: 'detect:graph' }],
          },
        ],
      },
    ],
  },
  {
    name: 'composite-without-conditions',
    expected: {
      code: 'VERDICT_COMPOSITE_CONDITIONS',
      file: 'agent.json',
      pointer: '/runner/verdict/config/conditions',
    },
    edits: [
      {
        file: 'agent.json',
        patch: [
          { set: '/runner/verdict/type', value: 'meta:composite' },
          { remove: '/runner/verdict/config/maxIterations' },
          { set: '/runner/verdict/config/operator', value: 'and' },
          { set: '/runner/verdict/config/conditions', value: [] },
        ],
      },
    ],
  },
  {
    name: 'conditional-default-missing',
    expected: {
      code: 'TRANSITION_DEFAULT_MISSING',
      file: 'steps_registry.json',
      pointer: '/steps/continuation.work/transitions/handoff/targets',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          { remove: '/steps/continuation.work/transitions/handoff/target' },
          { set: '/steps/continuation.work/transitions/handoff/condition', value: 'verdict' },
          { set: '/steps/continuation.work/transitions/handoff/targets', value: { done: 'closure.done' } },
        ],
      },
    ],
  },
  {
    name: 'conditional-target-unknown',
    expected: {
      code: 'UNKNOWN_TRANSITION_TARGET',
      file: 'steps_registry.json',
      pointer: '/steps/continuation.work/transitions/handoff/targets/default',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          { remove: '/steps/continuation.work/transitions/handoff/target' },
          { set: '/steps/continuation.work/transitions/handoff/condition', value: 'verdict' },
          {
            set: '/steps/continuation.work/transitions/handoff/targets',
            value: { done: 'closure.done', default: 'closure.nope' },
          },
        ],
      },
    ],
  },
  {
    name: 'custom-handler-not-found',
    expected: { code: 'VERDICT_HANDLER_NOT_FOUND', file: 'agent.json', pointer: '/runner/verdict/config/handlerPath' },
    edits: [
      {
        file: 'agent.json',
        patch: [{ set: '/runner/verdict', value: { type: 'meta:custom', config: { handlerPath: 'verdict.mjs' } } }],
      },
    ],
  },
  {
    name: 'custom-handler-outside',
    expected: { code: 'VERDICT_HANDLER_OUTSIDE', file: 'agent.json', pointer: '/runner/verdict/config/handlerPath' },
    edits: [
      {
        file: 'agent.json',
        patch: [{ set: '/runner/verdict', value: { type: 'meta:custom', config: { handlerPath: '../verdict.mjs' } } }],
      },
    ],
  },
  {
    name: 'custom-without-handler',
    expected: {
      code: 'VERDICT_HANDLER_PATH_MISSING',
      file: 'agent.json',
      pointer: '/runner/verdict/config/handlerPath',
    },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/type', value: 'meta:custom' }] }],
  },
  {
    name: 'entry-mapping-target-unknown',
    expected: { code: 'UNKNOWN_ENTRY_STEP', file: 'steps_registry.json', pointer: '/entryStepMapping/detect:graph' },
    edits: [
      { file: 'steps_registry.json', patch: [{ set: '/entryStepMapping', value: { 'detect:graph': 'initial.nope' } }] },
    ],
  },
  {
    name: 'entry-step-missing',
    expected: { code: 'ENTRY_STEP_MISSING', file: 'steps_registry.json', pointer: '/entryStep' },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/entryStep' }] }],
  },
  {
    name: 'entry-step-unknown',
    expected: { code: 'UNKNOWN_ENTRY_STEP', file: 'steps_registry.json', pointer: '/entryStep' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/entryStep', value: 'initial.start' }] }],
  },
  {
    name: 'failure-pattern-unknown',
    expected: {
      code: 'UNKNOWN_FAILURE_PATTERN',
      file: 'steps_registry.json',
      pointer: '/validators/git-clean/failurePattern',
    },
    edits: [
      { file: 'steps_registry.json', patch: [{ set: '/validators/git-clean/failurePattern', value: 'git-dirt' }] },
    ],
  },
  {
    name: 'fallback-intent-not-allowed',
    expected: {
      code: 'FALLBACK_INTENT_NOT_ALLOWED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/fallbackIntent',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          { set: '/steps/initial.work/structuredGate/failFast', value: false },
          { set: '/steps/initial.work/structuredGate/fallbackIntent', value: 'jump' },
        ],
      },
    ],
  },
  {
    name: 'gate-intent-field-missing',
    expected: {
      code: 'REGISTRY_SCHEMA',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/intentField',
    },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/steps/initial.work/structuredGate/intentField' }] }],
  },
  {
    name: 'intent-enum-mismatch',
    expected: {
      code: 'INTENT_ENUM_MISMATCH',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/intentSchemaRef',
    },
    edits: [
      {
        file: 'schemas/hello.schema.json',
        patch: [
          { set: '/initial.work/properties/next_action/properties/action/enum', value: ['next', 'repeat', 'jump'] },
        ],
      },
    ],
  },
  {
    name: 'intent-enum-missing',
    expected: {
      code: 'INTENT_ENUM_MISSING',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/intentSchemaRef',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/structuredGate/intentSchemaRef', value: '#/properties/next_action' }],
      },
    ],
  },
  {
    name: 'intent-name-unknown',
    expected: {
      code: 'REGISTRY_SCHEMA',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/allowedIntents/1',
      alsoCodes: ['INTENT_ENUM_MISMATCH'],
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/structuredGate/allowedIntents/1', value: 'retry' }],
      },
    ],
  },
  {
    name: 'intent-not-allowed-for-kind',
    expected: {
      code: 'INTENT_NOT_ALLOWED_FOR_KIND',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/allowedIntents',
    },
    edits: [
      {
        file: 'schemas/hello.schema.json',
        patch: [
          { set: '/initial.work/properties/next_action/properties/action/enum', value: ['next', 'repeat', 'closing'] },
        ],
      },
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/structuredGate/allowedIntents', value: ['next', 'repeat', 'closing'] }],
      },
    ],
  },
  {
    name: 'intent-schema-ref-format',
    expected: {
      code: 'INTENT_SCHEMA_REF_FORMAT',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/intentSchemaRef',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          {
            set: '/steps/initial.work/structuredGate/intentSchemaRef',
            value: 'properties/next_action/properties/action',
          },
        ],
      },
    ],
  },
  {
    name: 'intent-schema-ref-unresolved',
    expected: {
      code: 'INTENT_SCHEMA_REF_UNRESOLVED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/structuredGate/intentSchemaRef',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          {
            set: '/steps/initial.work/structuredGate/intentSchemaRef',
            value: '#/properties/next_action/properties/intent',
          },
        ],
      },
    ],
  },
  {
    name: 'keyword-signal-without-keyword',
    expected: { code: 'VERDICT_KEYWORD_MISSING', file: 'agent.json', pointer: '/runner/verdict/config/verdictKeyword' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/type', value: 'keywordSignal' }] }],
  },
  {
    name: 'model-max-tokens-invalid',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/runner/model/maxTokens' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/model', value: { maxTokens: 0 } }] }],
  },
  {
    name: 'no-reachable-closure',
    expected: {
      code: 'NO_REACHABLE_CLOSURE',
      file: 'steps_registry.json',
      pointer: '/entryStep',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/continuation.work/transitions/handoff/target', value: 'continuation.work' }],
      },
    ],
  },
  {
    name: 'on-fail-vocabulary-conflict',
    expected: {
      code: 'VOCABULARY_CONFLICT',
      file: 'steps_registry.json',
      pointer: '/validationSteps/closure.done/onFailure',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/validationSteps/closure.done/onFail', value: { retry: true, maxAttempts: 2 } }],
      },
    ],
  },
  {
    name: 'on-failure-action-invalid',
    expected: {
      code: 'REGISTRY_SCHEMA',
      file: 'steps_registry.json',
      pointer: '/validationSteps/closure.done/onFailure/action',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/validationSteps/closure.done/onFailure/action', value: 'ignore' }],
      },
    ],
  },
  {
    name: 'parameter-cli-pattern',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/parameters/topic/cli' },
    edits: [{ file: 'agent.json', patch: [{ set: '/parameters/topic/cli', value: 'topic' }] }],
  },
  {
    name: 'prompt-file-missing',
    expected: { code: 'PROMPT_FILE_MISSING', file: 'steps_registry.json', pointer: '/steps/continuation.work' },
    edits: [{ file: 'prompts/steps/continuation/work/f_default.md', delete: true }],
  },
  {
    name: 'registry-file-missing',
    expected: { code: 'FILE_MISSING', file: 'steps_registry.json', pointer: '' },
    edits: [{ file: 'steps_registry.json', delete: true }],
  },
  {
    name: 'registry-json-syntax',
    expected: { code: 'JSON_PARSE', file: 'steps_registry.json', pointer: '' },
    edits: [{ file: 'steps_registry.json', replace: ['\n}\n', '\n'] }],
  },
  {
    name: 'registry-path-missing',
    expected: { code: 'FILE_MISSING', file: 'registry.json', pointer: '' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/flow/prompts/registry', value: 'registry.json' }] }],
  },
  {
    name: 'schema-file-missing',
    expected: {
      code: 'SCHEMA_UNRESOLVED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/outputSchemaRef',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/outputSchemaRef/file', value: 'helo.schema.json' }],
      },
    ],
  },
  {
    name: 'schema-json-syntax',
    expected: {
      code: 'SCHEMA_UNRESOLVED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/outputSchemaRef',
    },
    edits: [
      { file: 'schemas/broken.schema.json', text: '{ "initial.work": { "type": "object", } }\n' },
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/outputSchemaRef/file', value: 'broken.schema.json' }],
      },
    ],
  },
  {
    name: 'schema-name-missing',
    expected: {
      code: 'SCHEMA_UNRESOLVED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/outputSchemaRef',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/outputSchemaRef/schema', value: 'initial.wrk' }],
      },
    ],
  },
  {
    name: 'schema-ref-cycle',
    expected: {
      code: 'SCHEMA_UNRESOLVED',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/outputSchemaRef',
    },
    edits: [
      {
        file: 'schemas/hello.schema.json',
        patch: [
          { set: '/$defs/a', value: { $ref: '#/$defs/b' } },
          { set: '/$defs/b', value: { $ref: '#/$defs/a' } },
          { set: '/initial.work/allOf', value: [{ $ref: '#/$defs/base' }, { $ref: '#/$defs/a' }] },
        ],
      },
    ],
  },
  {
    name: 'step-gate-missing',
    expected: { code: 'FLOW_STEP_INCOMPLETE', file: 'steps_registry.json', pointer: '/steps/initial.work' },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/steps/initial.work/structuredGate' }] }],
  },
  {
    name: 'step-id-mismatch',
    expected: { code: 'STEP_ID_MISMATCH', file: 'steps_registry.json', pointer: '/steps/initial.work/stepId' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/steps/initial.work/stepId', value: 'initial.wrk' }] }],
  },
  {
    name: 'step-kind-missing',
    expected: { code: 'STEP_KIND_MISSING', file: 'steps_registry.json', pointer: '/steps/initial.work/stepKind' },
    edits: [
      { file: 'prompts/steps/initial/work/f_default.md', delete: true },
      {
        file: 'prompts/steps/setup/work/f_default.md',
        text: '---\nuvVariables: [topic]\n---\nStart working on {uv-topic}. Make a plan.\n',
      },
      {
        file: 'steps_registry.json',
        patch: [{ remove: '/steps/initial.work/stepKind' }, { set: '/steps/initial.work/c2', value: 'setup' }],
      },
    ],
  },
  {
    name: 'step-kind-value-invalid',
    expected: { code: 'REGISTRY_SCHEMA', file: 'steps_registry.json', pointer: '/steps/initial.work/stepKind' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/steps/initial.work/stepKind', value: 'worker' }] }],
  },
  {
    name: 'steps-empty',
    expected: {
      code: 'REGISTRY_SCHEMA',
      file: 'steps_registry.json',
      pointer: '/steps',
      alsoCodes: ['UNKNOWN_ENTRY_STEP'],
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          { remove: '/steps/initial.work' },
          { remove: '/steps/continuation.work' },
          { remove: '/steps/closure.done' },
        ],
      },
    ],
  },
  {
    name: 'structured-signal-without-type',
    expected: { code: 'VERDICT_SIGNAL_TYPE_MISSING', file: 'agent.json', pointer: '/runner/verdict/config/signalType' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/type', value: 'detect:structured' }] }],
  },
  {
    name: 'system-prompt-missing',
    expected: { code: 'SYSTEM_PROMPT_MISSING', file: 'agent.json', pointer: '/runner/flow/systemPromptPath' },
    edits: [{ file: 'prompts/system.md', delete: true }],
  },
  {
    name: 'transition-intent-key-unknown',
    expected: {
      code: 'REGISTRY_SCHEMA',
      file: 'steps_registry.json',
      pointer: '/steps/initial.work/transitions/finish',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/initial.work/transitions/finish', value: { target: null } }],
      },
    ],
  },
  {
    name: 'transition-missing',
    expected: {
      code: 'TRANSITION_MISSING',
      file: 'steps_registry.json',
      pointer: '/steps/continuation.work/transitions/next',
    },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/steps/continuation.work/transitions/next' }] }],
  },
  {
    name: 'transition-shape',
    expected: {
      code: 'TRANSITION_SHAPE',
      file: 'steps_registry.json',
      pointer: '/steps/closure.done/transitions/repeat',
    },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/steps/closure.done/transitions/repeat/target' }] }],
  },
  {
    name: 'transition-target-unknown',
    expected: {
      code: 'UNKNOWN_TRANSITION_TARGET',
      file: 'steps_registry.json',
      pointer: '/steps/closure.done/transitions/repeat/target',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/steps/closure.done/transitions/repeat/target', value: 'closure.dne' }],
      },
    ],
  },
  {
    name: 'unknown-validator',
    expected: {
      code: 'UNKNOWN_VALIDATOR',
      file: 'steps_registry.json',
      pointer: '/validationSteps/closure.done/validationConditions/0/validator',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/validationSteps/closure.done/validationConditions/0/validator', value: 'git-clen' }],
      },
    ],
  },
  {
    name: 'uv-variables-not-array',
    expected: { code: 'REGISTRY_SCHEMA', file: 'steps_registry.json', pointer: '/steps/initial.work/uvVariables' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/steps/initial.work/uvVariables', value: 'topic' }] }],
  },
  {
    name: 'validation-command-unknown-key',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/runner/validation/commands/build' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/validation', value: { commands: { build: 'make' } } }] }],
  },
  {
    name: 'validator-extractor-unknown',
    expected: {
      code: 'UNKNOWN_EXTRACTOR',
      file: 'steps_registry.json',
      pointer: '/validators/git-clean/extractParams/changedFiles',
    },
    // A typo of parseChangedFiles: it would be `null` in every retry prompt.
    edits: [
      {
        file: 'steps_registry.json',
        patch: [{ set: '/validators/git-clean/extractParams/changedFiles', value: 'parseChangedFile' }],
      },
    ],
  },
  {
    name: 'validator-command-missing',
    expected: { code: 'VALIDATOR_INCOMPLETE', file: 'steps_registry.json', pointer: '/validators/git-clean/command' },
    edits: [{ file: 'steps_registry.json', patch: [{ remove: '/validators/git-clean/command' }] }],
  },
  {
    name: 'validator-command-not-configured',
    expected: {
      code: 'VALIDATOR_COMMAND_NOT_CONFIGURED',
      file: 'steps_registry.json',
      pointer: '/validationSteps/closure.done/validationConditions/1/validator',
    },
    edits: [
      {
        file: 'steps_registry.json',
        patch: [
          {
            set: '/validationSteps/closure.done/validationConditions',
            value: [{ validator: 'git-clean' }, { validator: 'type-check' }],
          },
        ],
      },
    ],
  },
  {
    name: 'validator-baseline-unknown',
    expected: { code: 'REGISTRY_SCHEMA', file: 'steps_registry.json', pointer: '/validators/git-clean/baseline' },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/validators/git-clean/baseline', value: 'forgive' }] }],
  },
  {
    name: 'validator-success-when',
    expected: {
      code: 'VALIDATOR_SUCCESS_WHEN',
      file: 'steps_registry.json',
      pointer: '/validators/git-clean/successWhen',
    },
    edits: [{ file: 'steps_registry.json', patch: [{ set: '/validators/git-clean/successWhen', value: 'zero' }] }],
  },
  {
    name: 'verdict-max-iterations-zero',
    expected: { code: 'VERDICT_MAX_ITERATIONS', file: 'agent.json', pointer: '/runner/verdict/config/maxIterations' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/config/maxIterations', value: 0 }] }],
  },
  {
    name: 'verdict-type-unknown',
    expected: { code: 'AGENT_SCHEMA', file: 'agent.json', pointer: '/runner/verdict/type' },
    edits: [{ file: 'agent.json', patch: [{ set: '/runner/verdict/type', value: 'detect:magic' }] }],
  },
];
