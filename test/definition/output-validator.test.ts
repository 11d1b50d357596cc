import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileOutputValidator, validateOutput } from '../../src/definition/schema/output-validator.js';

const schema = {
  type: 'object',
  required: ['summary', 'next_action'],
  properties: {
    summary: { type: 'string', minLength: 3 },
    next_action: {
      type: 'object',
      required: ['action'],
      properties: { action: { type: 'string', enum: ['next', 'repeat'] } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

test('valid output has no issues', () => {
  assert.deepEqual(validateOutput(schema, { summary: 'done', next_action: { action: 'next' } }), []);
});

test('issues are readable /path: message lines, all of them', () => {
  const issues = validateOutput(schema, { summary: 'x', next_action: { action: 'jump', extra: 1 }, more: true });
  assert.deepEqual(
    issues.sort(),
    [
      "/: unexpected property 'more'",
      '/next_action/action: must be one of "next", "repeat"',
      "/next_action: unexpected property 'extra'",
      '/summary: must NOT have fewer than 3 characters',
    ].sort(),
  );
  assert.deepEqual(validateOutput(schema, {}), [
    "/: missing required property 'summary'",
    "/: missing required property 'next_action'",
  ]);
});

test('compiled validators are cached by schema content', () => {
  assert.equal(compileOutputValidator(schema), compileOutputValidator(JSON.parse(JSON.stringify(schema))));
});
