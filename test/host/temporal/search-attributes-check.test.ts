/**
 * The namespace check at our own port (a fake operator service): missing attributes are
 * registered with their types; a refusal names every command that fixes it; a wrong
 * type is named; a namespace that has them all costs one list call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ensureSearchAttributes,
  REQUIRED_SEARCH_ATTRIBUTES,
  registeredLine,
  type SearchAttributeOperator,
} from '../../../src/host/temporal/search-attributes-check.js';
import { AgentError } from '../../../src/contracts/errors.js';

const at = { address: 'temporal.example:7233', namespace: 'team' };

function fakeOperator(
  initial: Record<string, number>,
  refuse?: Error,
): SearchAttributeOperator & { added: Array<Record<string, number>>; lists: number } {
  const attrs = { ...initial };
  const fake = {
    added: [] as Array<Record<string, number>>,
    lists: 0,
    listSearchAttributes: async ({ namespace }: { namespace: string }) => {
      assert.equal(namespace, 'team');
      fake.lists += 1;
      return { customAttributes: { ...attrs } };
    },
    addSearchAttributes: async (request: { namespace: string; searchAttributes: Record<string, number> }) => {
      assert.equal(request.namespace, 'team');
      if (refuse) throw refuse;
      fake.added.push(request.searchAttributes);
      Object.assign(attrs, request.searchAttributes);
      return {};
    },
  };
  return fake;
}

const ALL: Record<string, number> = Object.fromEntries(
  REQUIRED_SEARCH_ATTRIBUTES.map((a) => [a.name, { KEYWORD: 2, INT: 3, DOUBLE: 4 }[a.type as string] ?? 0]),
);

test('the set covers every attribute runs and pipelines set', () => {
  const names = REQUIRED_SEARCH_ATTRIBUTES.map((a) => a.name);
  for (const name of ['RepoId', 'IssueNumber', 'AgentName', 'RunPhase', 'StepId', 'PipelinePhase']) {
    assert.ok(names.includes(name), name);
  }
});

test('missing attributes are registered with their types, in one call, and reported in one line', async () => {
  const operator = fakeOperator({ IssueNumber: 3 });
  const check = await ensureSearchAttributes(operator, at);
  assert.equal(operator.added.length, 1);
  assert.equal(operator.added[0]!['RepoId'], 2, 'Keyword');
  assert.equal(operator.added[0]!['CostUsd'], 4, 'Double');
  assert.equal(operator.added[0]!['PipelineCycle'], 3, 'Int');
  assert.equal(operator.added[0]!['IssueNumber'], undefined, 'present ones are left alone');
  assert.ok(check.registered.includes('RepoId'));
  const line = registeredLine(check, at)!;
  assert.match(line, /^registered search attributes .*RepoId.* on namespace team at temporal\.example:7233$/);
  assert.ok(!line.includes('\n'));
});

test('a namespace with them all: one list call, nothing registered', async () => {
  const operator = fakeOperator(ALL);
  const check = await ensureSearchAttributes(operator, at);
  assert.deepEqual(check.registered, []);
  assert.equal(operator.lists, 1);
  assert.equal(registeredLine(check, at), undefined);
});

test('a refused registration lists exactly the commands to run', async () => {
  const denied = Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized.'), {
    code: 7,
    details: 'Request unauthorized.',
  });
  const { RepoId: _r, RunPhase: _p, ...rest } = ALL;
  const operator = fakeOperator(rest, denied);
  const err = await ensureSearchAttributes(operator, at).then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(AgentError.isInstance(err));
  assert.equal(err.code, 'SEARCH_ATTRIBUTES_MISSING');
  assert.match(err.message, /lacks the search attributes RunPhase, RepoId/);
  assert.match(err.message, /PERMISSION_DENIED: Request unauthorized\./);
  const commands = err.message.split('\n').filter((l) => l.trim().startsWith('temporal '));
  assert.deepEqual(
    commands.map((l) => l.trim()),
    [
      'temporal operator search-attribute create --address temporal.example:7233 --namespace team --name RunPhase --type Keyword',
      'temporal operator search-attribute create --address temporal.example:7233 --namespace team --name RepoId --type Keyword',
    ],
  );
});

test('registered meanwhile by another client: the refusal does not count', async () => {
  const operator = fakeOperator({}, new Error('6 ALREADY_EXISTS'));
  let lists = 0;
  const racing: SearchAttributeOperator = {
    listSearchAttributes: async () => (++lists === 1 ? { customAttributes: {} } : { customAttributes: ALL }),
    addSearchAttributes: operator.addSearchAttributes,
  };
  assert.deepEqual((await ensureSearchAttributes(racing, at)).registered, []);
});

test('an attribute of another type is named with the commands to recreate it', async () => {
  const operator = fakeOperator({ ...ALL, RepoId: 1 });
  await assert.rejects(ensureSearchAttributes(operator, at), (err: Error) => {
    assert.match(err.message, /RepoId is Text, expected Keyword/);
    assert.match(err.message, /temporal operator search-attribute remove .* --name RepoId/);
    assert.match(err.message, /temporal operator search-attribute create .* --name RepoId --type Keyword/);
    return true;
  });
  assert.equal(operator.added.length, 0);
});
