/**
 * The built-in retry prompt (an agent that ships no retry template) after a closing that
 * left tests failing on the base unclassified (issue 37): it names each one and says how
 * to classify it, and says nothing of the kind for other failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinRetryText } from '../../../../src/activities/conditions/retry-prompt/builtin-retry-text.js';
import type { ConditionResult } from '../../../../src/contracts/validation.js';

const unclassified: ConditionResult = {
  validator: 'tests',
  passed: false,
  command: 'pytest',
  exitCode: 1,
  failurePattern: 'pre-existing-unclassified',
  summary: '`pytest` exited 1\nbaseline ignore: failing on base abc too and not classified by the closure as unrelated',
  params: {
    baseCommit: 'abc',
    unclassified: [{ name: 'tests/test_six.py::test_b', file: 'tests/test_six.py', excerpt: 'assert 7 == 6' }],
  },
  unrecoverable: false,
};

test('the built-in text names each unclassified test and asks for pre_existing_failures', () => {
  const text = builtinRetryText([unclassified]);
  assert.match(text, /### tests \(pre-existing-unclassified\)/);
  assert.match(text, /- unclassified:\n {2}- tests\/test_six\.py::test_b \(tests\/test_six\.py\)\n {4}assert 7 == 6/);
  assert.match(
    text,
    /list it in `pre_existing_failures` of your closing answer as \{ "test": "<name>", "unrelated": true/,
  );
});

test('other failures get no classification line', () => {
  const text = builtinRetryText([{ ...unclassified, failurePattern: 'test-failed', params: { failedTests: [] } }]);
  assert.doesNotMatch(text, /pre_existing_failures/);
});
