/**
 * A masked result's placeholder names the call, its size and a file holding the full text,
 * from prompts/harness/masked-tool-result.md, and is the same text every time it is asked for.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';
import { createMaskedPlaceholder, describeCall } from '../../../src/activities/model/masked-placeholder.js';
import { tempDir } from './step-fixtures.js';

test('describeCall names the command or the editor operation', () => {
  assert.equal(describeCall('bash', { command: 'npm test\n  -- --grep x' }), 'bash `npm test -- --grep x`');
  assert.equal(
    describeCall('str_replace_based_edit_tool', { command: 'view', path: 'src/a.ts' }),
    'str_replace_based_edit_tool view src/a.ts',
  );
  assert.equal(describeCall('TodoWrite', { todos: [] }), 'TodoWrite');
  assert.equal(describeCall('bash', { command: 'x'.repeat(300) }).length, 'bash ``'.length + 120);
});

test('the placeholder points at the stored full text and does not change', async () => {
  const store = createArtifactStore(tempDir('masked-'));
  const placeholder = createMaskedPlaceholder(store);
  const content = 'PASS a\nFAIL b\n'.repeat(100);
  const result = { toolUseId: 'toolu_1', toolName: 'bash', input: { command: 'npm test' }, content };
  const text = await placeholder(result);
  assert.match(text, /^\[Output of bash `npm test` left out \(1,400 characters, 201 lines\)\. Full text: /);
  const glob = /Full text: (\S+)\]$/.exec(text)?.[1];
  assert.ok(glob !== undefined && glob.startsWith(store.dir) && glob.endsWith('/masked-toolu_1.*.txt'), text);
  assert.doesNotMatch(text, /[0-9a-f]{64}/, 'no sha256 in the prompt');
  const [file, ...more] = readdirSync(store.dir).filter((name) => name.startsWith('masked-toolu_1.'));
  assert.deepEqual(more, [], 'the glob names one file');
  assert.equal(readFileSync(join(store.dir, file!), 'utf8'), content);
  assert.equal(await createMaskedPlaceholder(store)(result), text, 'another attempt of the step: the same text');
  assert.doesNotMatch(text, /\{\{/, 'every template value is filled');
});
