import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { ResolvePromptInput } from '../../src/contracts/activities.js';
import { AgentError } from '../../src/contracts/errors.js';
import { resolveC3lPrompt, substituteUv } from '../../src/definition/c3l/resolve-c3l-prompt.js';
import { tempDir, writeText } from './temp-dirs.js';

function agent(): string {
  const dir = tempDir();
  writeText(dir, 'prompts/system.md', '---\ntitle: system\n---\nYou are {uv-agent_name}.\n');
  writeText(dir, 'prompts/steps/initial/work/f_default.md', 'Default edition for {uv-topic}.\n');
  writeText(
    dir,
    'prompts/steps/initial/work/f_default_detailed.md',
    '---\nuvVariables: [topic]\n---\n\nDetailed for {uv-topic}.\n',
  );
  writeText(dir, 'prompts/steps/initial/work/f_bug.md', 'Bug edition.\n');
  return dir;
}

function input(dir: string, over: Partial<ResolvePromptInput> = {}): ResolvePromptInput {
  return {
    agentDir: dir,
    promptsDir: path.join(dir, 'prompts'),
    kind: 'step',
    c1: 'steps',
    stepId: 'initial.work',
    c2: 'initial',
    c3: 'work',
    required: [],
    variables: { topic: 'caching' },
    ...over,
  };
}

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(AgentError.isInstance(error));
    return error;
  }
  assert.fail('expected a rejection');
}

test('adaptation file first, then the edition file', async () => {
  const dir = agent();
  assert.deepEqual(await resolveC3lPrompt(input(dir, { adaptation: 'detailed' })), {
    text: 'Detailed for caching.',
    source: 'steps/initial/work/f_default_detailed.md',
  });
  assert.deepEqual(await resolveC3lPrompt(input(dir, { adaptation: 'label-only' })), {
    text: 'Default edition for caching.',
    source: 'steps/initial/work/f_default.md',
  });
  assert.equal((await resolveC3lPrompt(input(dir, { edition: 'bug', adaptation: 'x' }))).text, 'Bug edition.');
});

test('no cross-edition fallback; the error lists every path tried', async () => {
  const dir = agent();
  const error = await rejection(resolveC3lPrompt(input(dir, { edition: 'feature', adaptation: 'detailed' })));
  assert.equal(error.code, 'PROMPT_RESOLUTION');
  assert.match(error.message, /f_feature_detailed\.md, .*f_feature\.md/);
  assert.doesNotMatch(error.message, /f_default/);
});

test('system prompt comes from the agent-relative path, front matter stripped', async () => {
  const dir = agent();
  const resolved = await resolveC3lPrompt({
    ...input(dir),
    kind: 'system',
    systemPromptPath: 'prompts/system.md',
    variables: { agent_name: 'hello' },
  });
  assert.deepEqual(resolved, { text: 'You are hello.', source: 'system.md' });
});

test('a missing declared variable names the step, the file and the variable', async () => {
  const dir = agent();
  const error = await rejection(resolveC3lPrompt(input(dir, { required: ['uv-issue'], variables: { topic: 'x' } })));
  assert.equal(error.code, 'PROMPT_RESOLUTION');
  assert.match(error.message, /step 'initial\.work'/);
  assert.match(error.message, /variable 'issue' is missing/);
  assert.ok(error.message.includes(path.join('steps', 'initial', 'work', 'f_default.md')));
  assert.deepEqual(error.details?.variable, 'issue');
  const empty = await rejection(resolveC3lPrompt(input(dir, { required: ['topic'], variables: { topic: '' } })));
  assert.match(empty.message, /variable 'topic' is empty/);
});

test('a placeholder without a value is an error naming it', async () => {
  const dir = agent();
  const error = await rejection(resolveC3lPrompt(input(dir, { variables: {} })));
  assert.match(error.message, /step 'initial\.work': placeholder \{uv-topic\} has no value in .*f_default\.md/);
});

test('values are inserted literally: $, backticks and {uv-other} stay as they are', async () => {
  const dir = agent();
  const value = '$& $1 $$ `rm -rf /` ; | > {uv-topic} {uv-missing}';
  const resolved = await resolveC3lPrompt(input(dir, { variables: { topic: value } }));
  assert.equal(resolved.text, `Default edition for ${value}.`);
});

test('substituteUv is pure and single-pass', () => {
  assert.equal(substituteUv('a {uv-x} b {uv-y} {uv-x}', { x: '{uv-y}', y: '$&' }), 'a {uv-y} b $& {uv-y}');
  assert.equal(substituteUv('keep {uv-none} and {other}', {}), 'keep {uv-none} and {other}');
});
