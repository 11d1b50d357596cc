/**
 * JSON Schema of agent.json (both vocabularies). Structure and value types only:
 * cross-field rules (verdict config per type, ...) live in ../rules so each can name
 * its own problem code. Objects stay open because upstream files carry keys with no
 * runtime meaning for us (permissionMode, allowedTools, sandbox, logging, ...).
 */
import { UPSTREAM_COMPLETION_ALIASES, CompletionType } from '../../contracts/completion-types.js';
import { ClosureAction } from '../../contracts/definition.js';
import { ContextStrategy, Effort, Thinking } from '../../contracts/model-options.js';
import { PERMISSION_MODES } from './registry-file-schema.js';

const VERDICT_TYPES = [...Object.values(CompletionType), ...Object.keys(UPSTREAM_COMPLETION_ALIASES)];

const nonEmptyString = { type: 'string', minLength: 1 } as const;

/** Our own extension (docs/model-and-cost.md): closed, so a misspelt key is an error. */
const CONTEXT_MANAGEMENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    strategy: { type: 'string', enum: Object.values(ContextStrategy) },
    keepToolResults: { type: 'integer', minimum: 1, maximum: 100 },
    maskChunk: { type: 'integer', minimum: 1, maximum: 100 },
    minMaskChars: { type: 'integer', minimum: 0 },
    triggerTokens: { type: 'integer', minimum: 1000 },
    clearAtLeastTokens: { type: 'integer', minimum: 0 },
  },
} as const;

const parameterSchema = {
  type: 'object',
  required: ['type', 'cli'],
  properties: {
    type: { type: 'string', enum: ['string', 'number', 'boolean', 'array'] },
    description: { type: 'string' },
    required: { type: 'boolean' },
    cli: { type: 'string', pattern: '^--[a-z][a-z0-9-]*$' },
  },
} as const;

export const AGENT_FILE_SCHEMA = {
  $id: 'durable-issue-agent/agent.json',
  type: 'object',
  required: ['name', 'runner'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    displayName: { type: 'string' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
    description: { type: 'string' },
    parameters: { type: 'object', additionalProperties: parameterSchema },
    runner: {
      type: 'object',
      properties: {
        flow: {
          type: 'object',
          properties: {
            systemPromptPath: nonEmptyString,
            prompts: { type: 'object', properties: { registry: nonEmptyString } },
            defaultModel: nonEmptyString,
          },
        },
        boundaries: {
          type: 'object',
          properties: {
            allowedTools: { type: 'array', items: { type: 'string' } },
            permissionMode: { type: 'string', enum: PERMISSION_MODES },
          },
        },
        verdict: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { type: 'string', enum: VERDICT_TYPES },
            config: { type: 'object' },
          },
        },
        integrations: {
          type: 'object',
          properties: {
            github: {
              type: 'object',
              properties: {
                enabled: { type: 'boolean' },
                defaultClosureAction: { type: 'string', enum: Object.values(ClosureAction) },
                labels: {
                  type: 'object',
                  properties: {
                    completion: {
                      type: 'object',
                      properties: {
                        add: { type: 'array', items: { type: 'string' } },
                        remove: { type: 'array', items: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        execution: {
          type: 'object',
          properties: {
            worktree: {
              type: 'object',
              properties: {
                enabled: { type: 'boolean' },
                root: nonEmptyString,
                branchPrefix: { type: 'string', pattern: '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$' },
              },
            },
          },
        },
        model: {
          type: 'object',
          properties: {
            model: nonEmptyString,
            maxTokens: { type: 'integer', minimum: 1 },
            maxTurnsPerStep: { type: 'integer', minimum: 1 },
            effort: { type: 'string', enum: Object.values(Effort) },
            thinking: { type: 'string', enum: Object.values(Thinking) },
            contextManagement: CONTEXT_MANAGEMENT_SCHEMA,
          },
        },
        validation: {
          type: 'object',
          properties: {
            commands: {
              type: 'object',
              additionalProperties: false,
              properties: {
                typeCheck: nonEmptyString,
                test: nonEmptyString,
                lint: nonEmptyString,
                format: nonEmptyString,
              },
            },
          },
        },
      },
    },
  },
} as const;

/** Top-level keys we know; any other key only earns a warning (upstream did the same). */
export const KNOWN_AGENT_KEYS: readonly string[] = Object.keys(AGENT_FILE_SCHEMA.properties);
