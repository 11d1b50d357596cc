/**
 * Retry prompt templates are checked at load: they must parse as Handlebars and read
 * only variables their failure pattern provides (plus the fixed ones); the rendering
 * itself is covered in test/activities/conditions/retry-prompt.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadAgentDefinition } from '../../src/definition/load/load-agent-definition.js';
import { FIXTURES } from './temp-dirs.js';
import { mutatedCopy } from './mutate-definition.js';

const BASE = path.join(FIXTURES, 'valid', 'upstream-vocabulary');
const TEMPLATE = 'prompts/steps/retry/done/f_failed_git-dirty.md';

async function problemsWith(text: string, file = TEMPLATE): Promise<string[]> {
  const dir = await mutatedCopy(BASE, [{ file, text }]);
  const result = await loadAgentDefinition(dir);
  return result.ok ? [] : result.problems.map((p) => `${p.code} ${p.file} ${p.message}`);
}

test('a template reading its pattern params and the fixed variables is valid', async () => {
  assert.deepEqual(
    await problemsWith(
      '{{#each changedFiles}}{{#if @first}}Changed:{{/if}} {{this}}{{/each}}{{#unless untrackedFiles}} none{{/unless}} {{{summary}}} {{error}}',
    ),
    [],
  );
});

test('an unknown variable is an error naming the file and the variable', async () => {
  const problems = await problemsWith('Fix {{changedFile}} please');
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? '', new RegExp(`^RETRY_TEMPLATE_UNKNOWN_VARIABLE ${TEMPLATE} .*\\{\\{changedFile\\}\\}`));
});

test("names inside #each may be the item's own; @root names are checked", async () => {
  assert.deepEqual(await problemsWith('{{#each changedFiles}}{{name}}{{/each}}'), []);
  const problems = await problemsWith('{{#each changedFiles}}{{@root.nope}}{{/each}}');
  assert.match(problems[0] ?? '', /\{\{nope\}\}/);
});

test('a template that does not parse is an error', async () => {
  const problems = await problemsWith('{{#if changedFiles}}open');
  assert.match(problems[0] ?? '', /^RETRY_TEMPLATE_INVALID/);
});

test('the f_failed.md fallback may read any pattern or validator param', async () => {
  assert.deepEqual(
    await problemsWith('{{untrackedFiles}} {{#each details}}{{this}}{{/each}}', 'prompts/steps/retry/done/f_failed.md'),
    [],
  );
});
