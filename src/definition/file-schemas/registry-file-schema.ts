/**
 * JSON Schema of steps_registry.json (both vocabularies). Structure and value types
 * only; references between entries (transition targets, validators, intents per step
 * kind, ...) are checked by the rules in ../rules, which name their own codes.
 * Step objects stay open: upstream registries carry `type`, `usesStdin`, `description`,
 * ... which we accept and ignore; `inputs`, `runner`, `model` and `permissionMode` are
 * used (normalise-steps). Gate, transitions and schema are optional here: `section.*`,
 * runner and ungated closure steps have none; the step-shape rules say which need them.
 */
import { ALL_INTENTS, ALL_STEP_KINDS } from '../../contracts/intents.js';
import { FailAction } from '../../contracts/definition.js';

const nonEmptyString = { type: 'string', minLength: 1 } as const;
const stringList = { type: 'array', items: { type: 'string' } } as const;
const stepIdOrEnd = { type: ['string', 'null'] } as const;

const schemaRef = {
  type: 'object',
  required: ['file', 'schema'],
  properties: { file: nonEmptyString, schema: nonEmptyString },
} as const;

const gate = {
  type: 'object',
  required: ['allowedIntents', 'intentField', 'intentSchemaRef'],
  properties: {
    allowedIntents: { type: 'array', minItems: 1, items: { type: 'string', enum: ALL_INTENTS } },
    intentField: nonEmptyString,
    intentSchemaRef: nonEmptyString,
    targetField: nonEmptyString,
    handoffFields: stringList,
    failFast: { type: 'boolean' },
    fallbackIntent: { type: 'string', enum: ALL_INTENTS },
  },
} as const;

const transition = {
  type: 'object',
  properties: {
    target: stepIdOrEnd,
    condition: nonEmptyString,
    targets: { type: 'object', additionalProperties: stepIdOrEnd },
  },
} as const;

const runner = {
  type: 'object',
  required: ['command'],
  properties: { command: nonEmptyString, args: stringList, timeout: { type: 'integer', minimum: 1 } },
} as const;

const input = {
  type: 'object',
  properties: { from: nonEmptyString, required: { type: 'boolean' } },
} as const;

export const PERMISSION_MODES = ['default', 'plan', 'acceptEdits', 'bypassPermissions'] as const;

const step = {
  type: 'object',
  required: ['stepId', 'c2', 'c3'],
  properties: {
    stepId: nonEmptyString,
    name: { type: 'string' },
    stepKind: { type: 'string', enum: ALL_STEP_KINDS },
    c2: nonEmptyString,
    c3: nonEmptyString,
    edition: nonEmptyString,
    adaptation: nonEmptyString,
    uvVariables: stringList,
    outputSchemaRef: schemaRef,
    structuredGate: gate,
    transitions: { type: 'object', propertyNames: { enum: ALL_INTENTS }, additionalProperties: transition },
    readOnly: { type: 'boolean' },
    runner,
    inputs: { type: 'object', additionalProperties: input },
    permissionMode: { type: 'string', enum: PERMISSION_MODES },
    model: nonEmptyString,
  },
} as const;

const condition = {
  type: 'object',
  required: ['validator'],
  properties: { validator: nonEmptyString, params: { type: 'object' } },
} as const;

const completionStep = {
  type: 'object',
  properties: {
    stepId: nonEmptyString,
    name: { type: 'string' },
    c2: nonEmptyString,
    c3: nonEmptyString,
    prompt: { type: 'object', properties: { c1: nonEmptyString, c2: nonEmptyString, c3: nonEmptyString } },
    completionConditions: { type: 'array', items: condition },
    validationConditions: { type: 'array', items: condition },
    onFail: {
      type: 'object',
      properties: { retry: { type: 'boolean' }, maxAttempts: { type: 'integer', minimum: 1 } },
    },
    onFailure: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: Object.values(FailAction) },
        maxAttempts: { type: 'integer', minimum: 1 },
      },
    },
  },
} as const;

const validator = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['command', 'file', 'custom', 'semantic'] },
    command: nonEmptyString,
    successWhen: nonEmptyString,
    failurePattern: nonEmptyString,
    extractParams: { type: 'object', additionalProperties: { type: 'string' } },
    timeoutMs: { type: 'integer', minimum: 1 },
    baseline: { type: 'string', enum: ['ignore', 'require-fixed'] },
    path: nonEmptyString,
    paths: stringList,
  },
} as const;

const failurePattern = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    edition: nonEmptyString,
    adaptation: nonEmptyString,
    params: stringList,
    semanticMatch: stringList,
  },
} as const;

export const REGISTRY_FILE_SCHEMA = {
  $id: 'durable-issue-agent/steps_registry.json',
  type: 'object',
  required: ['steps'],
  properties: {
    $schema: { type: 'string' },
    agentId: nonEmptyString,
    version: { type: 'string' },
    c1: nonEmptyString,
    pathTemplate: { type: 'string' },
    pathTemplateNoAdaptation: { type: 'string' },
    description: { type: 'string' },
    entryStep: nonEmptyString,
    entryStepMapping: { type: 'object', additionalProperties: nonEmptyString },
    steps: { type: 'object', minProperties: 1, additionalProperties: step },
    failurePatterns: { type: 'object', additionalProperties: failurePattern },
    validators: { type: 'object', additionalProperties: validator },
    completionSteps: { type: 'object', additionalProperties: completionStep },
    validationSteps: { type: 'object', additionalProperties: completionStep },
  },
} as const;

export const KNOWN_REGISTRY_KEYS: readonly string[] = Object.keys(REGISTRY_FILE_SCHEMA.properties);
