import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastLines } from '../../../src/activities/environment/setup-failure.js';

test('the last lines of a setup output carry no colour codes', () => {
  // Maven's real tail (a failed commons-cli setup): a line of escape codes alone, and one that ends a line.
  const output = [
    '[ERROR] Failed to execute goal org.apache.rat:apache-rat-plugin:0.18:check (rat-check) on project commons-cli',
    '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/PluginIncompatibleException',
    '\u001b[0m\u001b[0m',
    '\u001b[1;31mBUILD FAILURE\u001b[m',
  ].join('\n');
  assert.equal(
    lastLines(output),
    [
      '[ERROR] Failed to execute goal org.apache.rat:apache-rat-plugin:0.18:check (rat-check) on project commons-cli',
      '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/PluginIncompatibleException',
      'BUILD FAILURE',
    ].join('\n'),
  );
});
