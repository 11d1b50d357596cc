import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentError } from '../../src/contracts/errors.js';
import { resolveStepSchema } from '../../src/definition/schema/resolve-step-schema.js';
import { tempDir, writeJson } from './temp-dirs.js';

async function resolve(schemasDir: string, file: string, schema: string) {
  return resolveStepSchema({ schemasDir, stepId: 'initial.test', file, schema });
}

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(AgentError.isInstance(error), `not an AgentError: ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

test('resolves $ref across files, relative to the referencing file', async () => {
  const dir = tempDir();
  writeJson(dir, 'common/base.schema.json', {
    $defs: {
      base: {
        type: 'object',
        required: ['summary'],
        properties: { summary: { $ref: 'types.schema.json#/$defs/text' } },
      },
    },
  });
  writeJson(dir, 'common/types.schema.json', { $defs: { text: { type: 'string', minLength: 1 } } });
  writeJson(dir, 'step.schema.json', { 'initial.test': { $ref: 'common/base.schema.json#/$defs/base' } });
  const { full } = await resolve(dir, 'step.schema.json', 'initial.test');
  assert.deepEqual(full, {
    type: 'object',
    required: ['summary'],
    properties: { summary: { type: 'string', minLength: 1 } },
    additionalProperties: false,
  });
});

test('unescapes ~0 and ~1 in pointers', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' } },
    step: { type: 'object', properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/c~0d' } } },
  });
  const { full } = await resolve(dir, 's.schema.json', '#/step');
  assert.deepEqual(full.properties, { x: { type: 'string' }, y: { type: 'number' } });
});

test('bare names are looked up in definitions, then $defs, then the top level', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    definitions: { one: { const: 'definitions' } },
    $defs: { one: { const: '$defs' }, two: { const: '$defs' } },
    one: { const: 'top' },
    two: { const: 'top' },
    three: { const: 'top' },
  });
  assert.equal((await resolve(dir, 's.schema.json', 'one')).full.const, 'definitions');
  assert.equal((await resolve(dir, 's.schema.json', 'two')).full.const, '$defs');
  assert.equal((await resolve(dir, 's.schema.json', 'three')).full.const, 'top');
});

test('allOf: required unioned, later properties win, the step overrides the base entirely', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    $defs: {
      base: {
        type: 'object',
        required: ['next_action', 'summary'],
        properties: {
          summary: { type: 'string' },
          next_action: {
            type: 'object',
            required: ['action', 'reason'],
            properties: { action: { type: 'string' }, reason: { type: 'string' } },
          },
        },
      },
      extra: {
        type: 'object',
        required: ['extra'],
        properties: { extra: { type: 'string' }, summary: { type: 'string', description: 'later' } },
      },
    },
    step: {
      allOf: [{ $ref: '#/$defs/base' }, { $ref: '#/$defs/extra' }],
      required: ['verdict'],
      properties: {
        next_action: {
          type: 'object',
          required: ['action'],
          properties: { action: { type: 'string', enum: ['next', 'repeat'] } },
        },
        verdict: { type: 'string' },
      },
    },
  });
  const { full } = await resolve(dir, 's.schema.json', 'step');
  assert.deepEqual(full.required, ['next_action', 'summary', 'extra', 'verdict']);
  const props = full.properties as Record<string, any>;
  assert.equal(props.summary.description, 'later');
  // The step's next_action replaces the base's: no `reason`, only the step's required.
  assert.deepEqual(props.next_action, {
    type: 'object',
    required: ['action'],
    properties: { action: { type: 'string', enum: ['next', 'repeat'] } },
    additionalProperties: false,
  });
  assert.equal(full.allOf, undefined);
});

test('siblings of $ref are kept on top of the target', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    $defs: { base: { type: 'object', properties: { a: { type: 'string' } } } },
    step: { $ref: '#/$defs/base', required: ['a'], description: 'own' },
  });
  const { full } = await resolve(dir, 's.schema.json', 'step');
  assert.deepEqual(full.required, ['a']);
  assert.equal(full.description, 'own');
});

test('a cycle is an error naming the whole chain', async () => {
  const dir = tempDir();
  writeJson(dir, 'a.schema.json', {
    step: { $ref: 'b.schema.json#/$defs/x' },
    $defs: { y: { type: 'object', properties: { back: { $ref: 'b.schema.json#/$defs/x' } } } },
  });
  writeJson(dir, 'b.schema.json', { $defs: { x: { $ref: 'a.schema.json#/$defs/y' } } });
  const error = await rejection(resolve(dir, 'a.schema.json', 'step'));
  assert.equal(error.code, 'SCHEMA_RESOLUTION');
  assert.match(
    error.message,
    /circular \$ref: b\.schema\.json#\/\$defs\/x -> a\.schema\.json#\/\$defs\/y -> b\.schema\.json#\/\$defs\/x/,
  );
  assert.match(error.message, /initial\.test/);
  assert.match(error.where ?? '', /^schemas\/a\.schema\.json#\/\$defs\/y\/properties\/back$/);
});

test('a chain deeper than the limit is rejected', async () => {
  const dir = tempDir();
  const defs: Record<string, unknown> = { d60: { type: 'string' } };
  for (let i = 0; i < 60; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  writeJson(dir, 's.schema.json', { $defs: defs });
  const error = await rejection(resolve(dir, 's.schema.json', 'd0'));
  assert.match(error.message, /deeper than 50/);
});

test('missing file, pointer and name give SCHEMA_RESOLUTION with where', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', { step: { $ref: '#/$defs/nope' } });
  const missingFile = await rejection(resolve(dir, 'none.schema.json', 'step'));
  assert.equal(missingFile.where, 'schemas/none.schema.json#');
  const missingTarget = await rejection(resolve(dir, 's.schema.json', 'step'));
  assert.equal(missingTarget.where, 'schemas/s.schema.json#/step');
  assert.match(missingTarget.message, /not found/);
  const missingName = await rejection(resolve(dir, 's.schema.json', 'other'));
  assert.match(missingName.message, /'other' not found/);
  const malformed = await rejection(resolve(dir, 's.schema.json', '##/step'));
  assert.match(malformed.message, /malformed/);
  const outside = await rejection(resolve(dir, '../s.schema.json', 'step'));
  assert.match(outside.message, /outside the schemas directory/);
});

test('api form: objects closed, unsupported keywords removed, required kept as declared', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: { tag: { type: 'string', pattern: '^(?!x)[a-z]+$' } },
    step: {
      type: 'object',
      required: ['summary'],
      properties: {
        summary: { type: 'string', minLength: 3, maxLength: 100, default: 'x', examples: ['y'] },
        count: { type: 'integer', minimum: 0, maximum: 9 },
        when: { type: 'string', format: 'date-time' },
        custom: { type: 'string', format: 'semver' },
        code: { type: 'string', pattern: '^[A-Z]+$' },
        tag: { $ref: '#/$defs/tag' },
        items: { type: 'array', minItems: 2, items: { type: 'object', properties: { a: { type: 'string' } } } },
        choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        minLength: { type: 'string' },
      },
    },
  });
  const { full, api } = await resolve(dir, 's.schema.json', 'step');
  assert.equal(full.$schema, undefined);
  assert.equal((full.properties as any).summary.minLength, 3, 'full keeps constraints');
  assert.deepEqual(api, {
    type: 'object',
    required: ['summary'],
    properties: {
      summary: { type: 'string' },
      count: { type: 'integer' },
      when: { type: 'string', format: 'date-time' },
      custom: { type: 'string' },
      code: { type: 'string', pattern: '^[A-Z]+$' },
      tag: { type: 'string' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
      },
      choice: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      minLength: { type: 'string' },
    },
    additionalProperties: false,
  });
});

test('an explicit additionalProperties is kept in full but closed in api', async () => {
  const dir = tempDir();
  writeJson(dir, 's.schema.json', {
    step: { type: 'object', properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } } },
  });
  const { full, api } = await resolve(dir, 's.schema.json', 'step');
  assert.deepEqual((full.properties as any).meta.additionalProperties, { type: 'string' });
  assert.equal((api.properties as any).meta.additionalProperties, false);
});

test('stepId pinned with const/enum is relaxed to a string in both forms: the runtime owns and corrects it', async () => {
  const dir = tempDir();
  writeJson(dir, 'step.schema.json', {
    'initial.test': {
      type: 'object',
      required: ['stepId'],
      properties: { stepId: { type: 'string', const: 'initial.test', description: 'the step' } },
      anyOf: [{ properties: { stepId: { enum: ['initial.test'] } } }],
    },
  });
  const { full, api } = await resolve(dir, 'step.schema.json', 'initial.test');
  const props = full['properties'] as Record<string, unknown>;
  assert.deepEqual(props['stepId'], { type: 'string', description: 'the step' });
  assert.deepEqual(full['required'], ['stepId']);
  assert.deepEqual((full['anyOf'] as Array<{ properties: unknown }>)[0]?.properties, { stepId: { type: 'string' } });
  assert.deepEqual((api['properties'] as Record<string, unknown>)['stepId'], {
    type: 'string',
    description: 'the step',
  });
});

test('an unpinned stepId is left exactly as written', async () => {
  const dir = tempDir();
  const schema = { type: 'object', properties: { stepId: { type: 'string' } }, additionalProperties: false };
  writeJson(dir, 'step.schema.json', { 'initial.test': schema });
  const { full } = await resolve(dir, 'step.schema.json', 'initial.test');
  assert.deepEqual(full, schema);
});
