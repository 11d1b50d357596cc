/** The one factory of strict Ajv instances, for the project's own schemas. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strictSchema } from '../../../src/definition/schema/lazy-ajv.js';

test('a strict schema compiles on its first use, once, and rejects what does not match', () => {
  const get = strictSchema<{ name: string }>({
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  });
  const validate = get();
  assert.equal(get(), validate, 'compiled once, then reused');
  assert.equal(validate({ name: 'x' }), true);
  assert.equal(validate({ name: 1 }), false);
  assert.equal(validate.errors?.[0]?.keyword, 'type');
});

test('an invalid schema fails at its first use, not at import', () => {
  const get = strictSchema({ type: 'object', notAKeyword: true });
  assert.throws(() => get(), /unknown keyword/);
});

test('every error at once; union types allowed', () => {
  const validate = strictSchema({
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: ['string', 'number'] } },
    required: ['a', 'b'],
  })();
  assert.equal(validate({ b: 1 }), false);
  assert.equal(validate({}), false);
  assert.equal(validate.errors?.length, 2, 'allErrors');
});
