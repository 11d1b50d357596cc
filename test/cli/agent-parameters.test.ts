/**
 * Agent parameters on the start-run command line: `--<cli flag>`, the kebab-cased key
 * and `--param key=value` are taken out of argv before strict parsing, typed, given
 * their defaults; a missing required one is a usage error naming its flag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../src/contracts/errors.js';
import { COMMANDS } from '../../src/cli/flags/command-specs.js';
import { parseFlags } from '../../src/cli/flags/parse-flags.js';
import { extractAgentParameters, resolveAgentParameters } from '../../src/cli/flags/agent-parameters.js';

const AGENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');
const spec = COMMANDS['start-run']!;

test('declared flags and --param are taken out; the rest parses strictly', async () => {
  const argv = [
    '--issue',
    '3',
    '--agent',
    join(AGENTS, 'runner-closure'),
    '--pr-number',
    '42',
    '--param',
    'verdict={"ok":true}',
    '--follow',
  ];
  const extracted = await extractAgentParameters(argv, spec.flags);
  assert.deepEqual(extracted.argv, ['--issue', '3', '--agent', join(AGENTS, 'runner-closure'), '--follow']);
  const flags = parseFlags(spec, extracted.argv);
  assert.equal(flags['follow'], true);
  assert.deepEqual(resolveAgentParameters(extracted, { issue: 3 }), { prNumber: 42, verdict: '{"ok":true}' });
});

test('defaults apply; --flag=value and the kebab-cased key are accepted', async () => {
  const argv = [`--agent=${join(AGENTS, 'sectioned')}`, '--topic=caching', '--project-title', 'Apollo'];
  const extracted = await extractAgentParameters(argv, spec.flags);
  assert.deepEqual(extracted.argv, [`--agent=${join(AGENTS, 'sectioned')}`]);
  assert.deepEqual(resolveAgentParameters(extracted, {}), { depth: 3, topic: 'caching', projectTitle: 'Apollo' });
});

test('a missing required parameter is a usage error naming its flag', async () => {
  const extracted = await extractAgentParameters(
    ['--agent', join(AGENTS, 'runner-closure'), '--pr-number', '1'],
    spec.flags,
  );
  assert.throws(
    () => resolveAgentParameters(extracted, {}),
    (err: unknown) => err instanceof UsageError && /--verdict \(verdict/.test(err.message),
  );
});

test('wrong types and undeclared --param keys are usage errors', async () => {
  const dir = join(AGENTS, 'runner-closure');
  const extracted = await extractAgentParameters(['--agent', dir, '--pr-number', 'abc', '--verdict', 'v'], spec.flags);
  assert.throws(() => resolveAgentParameters(extracted, {}), /--pr-number \(prNumber\) must be a number/);
  await assert.rejects(extractAgentParameters(['--agent', dir, '--param', 'nope=1'], spec.flags), /declared parameter/);
});

test("a parameter whose flag is the command's own (--issue) takes that flag's value", async () => {
  const extracted = {
    argv: [],
    specs: { issue: { type: 'number' as const, description: 'Issue', required: true, cli: '--issue' } },
    given: {},
  };
  assert.deepEqual(resolveAgentParameters(extracted, { issue: 12 }), { issue: 12 });
});
