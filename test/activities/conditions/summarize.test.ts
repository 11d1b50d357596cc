import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandSummary, failureLine, firstMeaningfulLine } from '../../../src/activities/conditions/summarize.js';
import { parseTestFailures } from '../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { fixture } from './fixtures.js';

const NPM_STDERR = 'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.\n';

test('the summary of a failed test command names the first failure and its assertion, not npm banners', () => {
  const stdout = fixture('mocha.txt');
  const summary = commandSummary({
    command: 'npm test',
    ended: 'exited 3 (expected exit code 0)',
    stdout,
    stderr: NPM_STDERR,
    failures: parseTestFailures(stdout),
  });
  assert.equal(
    summary,
    '`npm test` exited 3 (expected exit code 0)\nthrows: TypeError: cannot read x of undefined (+2 more)',
  );
  const go = failureLine(parseTestFailures(fixture('go-test.txt')));
  assert.equal(go, 'TestAdd: calc_test.go:7: Add(2, 3) = -1, want 5 (+2 more)');
  assert.equal(failureLine([]), undefined);
});

test('without named failures, npm banners and warnings are not the telling line', () => {
  assert.equal(firstMeaningfulLine(NPM_STDERR), undefined);
  assert.equal(
    firstMeaningfulLine('\n> is-number@7.0.0 test\n> node check.js\n\nchecks: 2 problems\n'),
    'checks: 2 problems',
  );
  const summary = commandSummary({ command: 'npm test', ended: 'exited 1', stdout: 'boom\n', stderr: NPM_STDERR });
  assert.equal(summary, '`npm test` exited 1\nboom');
  // pytest's own `>` marker line is not a banner.
  assert.equal(firstMeaningfulLine('>       assert add(2, 3) == 5'), '>       assert add(2, 3) == 5');
});

test('a long first failure is cut to one line', () => {
  const line = failureLine([{ name: 'x'.repeat(300), excerpt: 'why' }]) ?? '';
  assert.equal(line.length, 200);
  assert.ok(line.endsWith('…'));
});

test("an assertion's header line is joined with what it announces, past the diff legend", () => {
  const strict = { name: 'add adds two numbers', excerpt: 'Expected values to be strictly equal:\n\n3 !== 4\n' };
  assert.equal(failureLine([strict]), 'add adds two numbers: Expected values to be strictly equal: 3 !== 4');
  const deep = {
    name: 'parses',
    excerpt: 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n  {\n+   a: 1\n-   a: 2\n  }',
  };
  assert.equal(failureLine([deep]), 'parses: Expected values to be strictly deep-equal: + a: 1');
  assert.equal(failureLine([{ name: 't', excerpt: 'boom' }]), 't: boom');
  assert.equal(failureLine([{ name: 't', excerpt: 'ends with a colon:' }]), 't: ends with a colon:');
});
