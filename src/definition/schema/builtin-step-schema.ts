/**
 * The output schema of a step the registry gave none: an ungated closure step
 * (upstream triager: one closure step, no structuredGate) answers with a summary and
 * the closing intent; a runner step's subprocess output is read as JSON, not checked
 * against it. A schema, not prompt text: it only constrains the answer's shape.
 */
import type { JsonObject } from '../../contracts/json.js';

export const BUILTIN_SCHEMA_FILE = '(built-in)';
export const BUILTIN_CLOSURE_SCHEMA_NAME = 'ungated.closure';
export const BUILTIN_INTENT_FIELD = 'next_action.action';
export const BUILTIN_INTENT_POINTER = '#/properties/next_action/properties/action';

export const BUILTIN_CLOSURE_SCHEMA: JsonObject = {
  type: 'object',
  required: ['stepId', 'summary', 'next_action'],
  properties: {
    stepId: { type: 'string' },
    summary: { type: 'string' },
    verdict: { type: 'string' },
    next_action: {
      type: 'object',
      required: ['action'],
      properties: { action: { type: 'string', enum: ['closing'] }, reason: { type: 'string' } },
    },
  },
};
