/**
 * JSON Schema of the upstream `.agent/workflow.json` (the label pipeline), and the raw
 * shape it admits. Structure and value types only, as upstream's own schema says them;
 * cross-references (phases ↔ labels ↔ agents) are rules in ./rules so each problem can
 * carry its upstream WF-* code. Keys upstream accepts but we do not act on (handoffs,
 * payloadSchema, subjectStore, the rate-limit rules) are admitted and earn a warning.
 */

export interface RawPhase {
  readonly type: string;
  readonly priority?: number;
  readonly agent?: string | null;
}

export interface RawLabelSpec {
  readonly color: string;
  readonly description: string;
}

export interface RawAgent {
  readonly role: string;
  readonly directory?: string;
  readonly fallbackPhase?: string;
  readonly closeOnComplete?: boolean;
  readonly closeCondition?: string;
  readonly outputPhase?: string;
  readonly fallbackPhases?: Readonly<Record<string, string>>;
  readonly outputPhases?: Readonly<Record<string, string>>;
}

export interface RawRules {
  readonly maxCycles?: number;
  readonly cycleDelayMs?: number;
  readonly maxConsecutivePhases?: number;
  readonly rateLimitThreshold?: number;
  readonly rateLimitPollIntervalMs?: number;
}

export interface RawPrioritizer {
  readonly agent: string;
  readonly labels: readonly string[];
  readonly defaultLabel?: string;
}

export interface RawWorkflowFile {
  readonly version: string;
  readonly labelPrefix?: string;
  readonly phases: Readonly<Record<string, RawPhase>>;
  readonly labelMapping: Readonly<Record<string, string>>;
  readonly labels?: Readonly<Record<string, RawLabelSpec>>;
  readonly agents: Readonly<Record<string, RawAgent>>;
  readonly rules?: RawRules;
  readonly handoff?: { readonly commentTemplates?: Readonly<Record<string, string>> };
  readonly prioritizer?: RawPrioritizer;
  readonly subjectStore?: unknown;
  readonly handoffs?: unknown;
  readonly payloadSchema?: unknown;
}

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

export const PHASE_TYPES = ['actionable', 'terminal', 'blocking'] as const;
export const AGENT_ROLES = ['transformer', 'validator'] as const;

export const WORKFLOW_FILE_SCHEMA = {
  $id: 'durable-issue-agent/workflow.json',
  type: 'object',
  required: ['version', 'phases', 'labelMapping', 'agents'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    version: { type: 'string' },
    labelPrefix: { type: 'string', pattern: '^[^:\\s,]+$' },
    phases: {
      type: 'object',
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        required: ['type'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', enum: PHASE_TYPES },
          priority: { type: 'number' },
          agent: { type: ['string', 'null'] },
        },
      },
    },
    labelMapping: { ...stringMap, minProperties: 1 },
    labels: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['color', 'description'],
        additionalProperties: false,
        properties: {
          color: { type: 'string', pattern: '^[0-9a-fA-F]{6}$' },
          description: { type: 'string', minLength: 1 },
        },
      },
    },
    agents: {
      type: 'object',
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        required: ['role'],
        additionalProperties: false,
        properties: {
          role: { type: 'string', enum: AGENT_ROLES },
          directory: { type: 'string', minLength: 1 },
          fallbackPhase: { type: 'string' },
          closeOnComplete: { type: 'boolean' },
          closeCondition: { type: 'string' },
          outputPhase: { type: 'string' },
          fallbackPhases: stringMap,
          outputPhases: stringMap,
        },
      },
    },
    rules: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxCycles: { type: 'integer', minimum: 1 },
        cycleDelayMs: { type: 'integer', minimum: 0 },
        maxConsecutivePhases: { type: 'integer', minimum: 0 },
        rateLimitThreshold: { type: 'number' },
        rateLimitPollIntervalMs: { type: 'number' },
      },
    },
    handoff: {
      type: 'object',
      additionalProperties: false,
      properties: { commentTemplates: stringMap },
    },
    subjectStore: { type: 'object' },
    prioritizer: {
      type: 'object',
      additionalProperties: false,
      required: ['agent', 'labels'],
      properties: {
        agent: { type: 'string', minLength: 1 },
        labels: { type: 'array', items: { type: 'string' }, minItems: 1 },
        defaultLabel: { type: 'string' },
      },
    },
    handoffs: { type: 'array' },
    payloadSchema: { type: 'object' },
  },
} as const;
