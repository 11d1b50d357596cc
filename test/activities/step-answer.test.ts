/** A person's answer is quoted after the step prompt as their words, line by line, with the question. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withAnswer } from '../../src/activities/step/step-request.js';

test('the answer is quoted after the prompt, with its author and the question', async () => {
  const text = await withAnswer('STEP prompt', {
    question: 'Add or subtract?',
    author: 'ann',
    text: 'Add.\n\nAlways.',
  });
  assert.ok(text.startsWith('STEP prompt\n\n<answer_to_your_question>'));
  assert.match(text, /you asked the people on the issue:\n\nAdd or subtract\?/);
  assert.match(text, /ann answered\. Their words, quoted as written:\n\n> Add\.\n>\n> Always\./);
  assert.equal(await withAnswer('STEP prompt', undefined), 'STEP prompt');
});
