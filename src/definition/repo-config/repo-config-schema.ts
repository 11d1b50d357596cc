/**
 * JSON Schema of `<repo>/.agent/config.json`; checked with Ajv so every problem is
 * reported with its JSON pointer. Unknown keys are refused: a typo must not be ignored.
 */
const command = { type: 'string', minLength: 1 } as const;
/** `commands.setup`: one command line, or a non-empty list run in order. */
const setup = { anyOf: [command, { type: 'array', minItems: 1, items: command }] } as const;

export const REPO_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    commands: {
      type: 'object',
      additionalProperties: false,
      properties: { test: command, typeCheck: command, lint: command, format: command, setup },
    },
    baseBranch: { type: 'string', minLength: 1 },
    deliver: { enum: ['branch', 'pr', 'merge', 'squash'] },
    budget: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxUsd: { type: 'number', exclusiveMinimum: 0 },
        maxTokens: { type: 'integer', exclusiveMinimum: 0 },
        hardMaxUsd: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    maxIterations: { type: 'integer', minimum: 1 },
    answerTimeoutHours: { type: 'number', exclusiveMinimum: 0 },
    planApproval: {
      anyOf: [
        { enum: ['never', 'always'] },
        {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            maxFiles: { type: 'integer', minimum: 0 },
            paths: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
          },
        },
      ],
    },
    /** `agentSetup: false`: never let the model write the setup where detection ends (docs/environments/agent-setup.md). */
    environment: {
      type: 'object',
      additionalProperties: false,
      properties: { agentSetup: { type: 'boolean' } },
    },
    model: { type: 'string', minLength: 1 },
    issues: { enum: ['local', 'github'] },
    agent: { type: 'string', minLength: 1 },
    watch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mention: { type: 'string', pattern: '^@[A-Za-z0-9][A-Za-z0-9_-]{0,38}$' },
        label: { type: 'string', minLength: 1, maxLength: 50 },
        ciRounds: { type: 'integer', minimum: 0, maximum: 10 },
      },
    },
    labels: {
      type: 'object',
      additionalProperties: false,
      properties: { needsHuman: { type: 'string', minLength: 1, maxLength: 50 } },
    },
  },
} as const;
