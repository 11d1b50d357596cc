/**
 * The harness's own templates under prompts/ (comments/, harness/) are not step prompts:
 * the default agent validates without PROMPT_FILE_UNUSED for them, while an unused step
 * prompt is still reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAgentDefinition } from '../../../src/definition/load/load-agent-definition.js';
import { copyFixture, writeText } from '../temp-dirs.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('the default agent has no unused-prompt warning for the harness templates', async () => {
  const result = await loadAgentDefinition(PROJECT_ROOT);
  assert.ok(result.ok);
  assert.deepEqual(
    result.warnings.filter((w) => w.code === 'PROMPT_FILE_UNUSED').map((w) => w.file),
    [],
  );
});

test('an unused step prompt is still reported, a harness template is not', async () => {
  const dir = copyFixture('valid/default-layout');
  writeText(dir, 'prompts/harness/masked-tool-result.md', '[{{call}}]\n');
  writeText(dir, 'prompts/steps/nowhere/x/f_default.md', 'unused\n');
  const result = await loadAgentDefinition(dir);
  assert.ok(result.ok);
  const unused = result.warnings.filter((w) => w.code === 'PROMPT_FILE_UNUSED').map((w) => w.file);
  assert.ok(
    unused.some((f) => f.endsWith('steps/nowhere/x/f_default.md')),
    unused.join(', '),
  );
  assert.ok(!unused.some((f) => f.includes('harness/')), unused.join(', '));
});
