import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParameterSpec } from '../../../src/contracts/definition.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { pipelineAgentParameters } from '../../../src/activities/pipeline/resolve-agents.js';

const spec = (type: ParameterSpec['type'], extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
  type,
  description: 'd',
  required: false,
  cli: '--x',
  ...extra,
});

test('agent parameters at dispatch: defaults, the issue (typed), given values win (upstream [BUG]: none applied)', () => {
  const specs = {
    issue: spec('number', { required: true }),
    style: spec('string', { default: 'terse' }),
    n: spec('number'),
  };
  assert.deepEqual(pipelineAgentParameters('a', specs, undefined, 7), { issue: 7, style: 'terse' });
  assert.deepEqual(pipelineAgentParameters('a', specs, { style: 'long', n: 2 }, 7), { issue: 7, style: 'long', n: 2 });
  assert.deepEqual(pipelineAgentParameters('a', { issue: spec('string') }, undefined, 7), { issue: '7' });
  assert.deepEqual(pipelineAgentParameters('a', {}, undefined, 7), {}, 'no issue parameter declared, none passed');
});

test('a required parameter without a value is a clear error naming the agent and the parameter', () => {
  assert.throws(
    () =>
      pipelineAgentParameters(
        'reviewer',
        { prNumber: spec('number', { required: true, cli: '--pr-number' }) },
        undefined,
        1,
      ),
    (err: unknown) =>
      AgentError.isInstance(err) &&
      err.code === 'CONFIG_INVALID' &&
      /reviewer.*prNumber \(--pr-number/.test(err.message),
  );
});
