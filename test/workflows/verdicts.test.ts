/**
 * Verdicts a reviewer can trust, end to end with the default agent:
 * - the test-integrity guard: a scripted model "fixes" the issue by skipping the failing
 *   tests; the tests validator passes (skipped tests do not fail), the guard does not,
 *   and the retry prompt names the file and line. The model puts the tests back, fixes
 *   the code, and the run completes.
 * - baseline-aware failures: the sample repository's `sum` test already fails on main;
 *   a run for another issue (a new `product()`) leaves it alone. Its first closing does
 *   not classify that failure: the retry prompt names the test and asks for it (issue
 *   37); the closing that classifies it as unrelated delivers, and the closing comment and
 *   the run's summary carry the claim.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript, type SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
const rule = (id: string): SessionRule => {
  const found = demo.rules.find((r) => r.id === id);
  assert.ok(found, `demo session has rule ${id}`);
  return found;
};
const WEAKENED = 'completion check failed: tests were weakened';

test('a model that skips the failing tests gets the guard retry prompt naming file and line, then fixes the code', async () => {
  const session = {
    name: 'skips failing tests',
    rules: [
      {
        id: 'retry-unskip-fix',
        when: { promptContains: [WEAKENED, '`test/sum.test.js` line 5: skips a test', 'line 9'], turn: 0 },
        respond: {
          toolUse: [
            {
              name: 'bash',
              input: {
                command:
                  "sed -i 's/^test\\.skip(/test(/' test/sum.test.js && sed -i 's/a - b/a + b/' src/sum.js && git commit -qam 'Fix #1: sum() adds; tests back on'; npm test --silent",
              },
            },
          ],
        },
      },
      {
        id: 'retry-closing',
        when: { promptContains: WEAKENED, turn: 1 },
        respond: {
          json: { ...(rule('closure-answer').respond.json as object), summary: 'Tests restored, code fixed.' },
        },
      },
      ...['understand-explore', 'understand-answer', 'reproduce-test', 'reproduce-run-commit', 'reproduce-answer'].map(
        rule,
      ),
      {
        id: 'implement-skip',
        when: { promptContains: 'Step continuation.implement', turn: 0 },
        respond: {
          text: 'The tests are in the way; skipping them.',
          toolUse: [
            {
              name: 'bash',
              input: {
                command:
                  "sed -i \"s/^test('sum adds/test.skip('sum adds/\" test/sum.test.js && git commit -qam 'Skip the sum tests'; npm test --silent",
              },
            },
          ],
        },
      },
      {
        id: 'implement-answer',
        when: { promptContains: 'Step continuation.implement', turn: 1 },
        respond: rule('work-answer').respond,
      },
      {
        id: 'review-pass-any',
        when: { promptContains: 'Step verification.review' },
        respond: rule('review-pass').respond,
      },
      {
        id: 'closure-closing-weakened',
        when: { promptContains: 'Step closure.issue', turn: 0 },
        respond: rule('closure-answer').respond,
      },
    ],
  };
  const { result, repoPath, model } = await runScenario({ session });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().byRule['implement-skip'], 1);
  assert.equal(
    model.stats().byRule['retry-unskip-fix'],
    1,
    'the guard retry prompt named test/sum.test.js line 5 and 9',
  );
  assert.deepEqual(
    result.steps.map((s) => s.intent),
    ['next', 'next', 'next', 'next', 'closing', 'closing'],
  );
  const merged = readFileSync(join(repoPath, 'test', 'sum.test.js'), 'utf8');
  assert.equal(merged.includes('test.skip'), false, 'no skipped test reached main');
  assert.match(readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8'), /a \+ b/);
});

const PRODUCT_ISSUE = `---
title: Add product()
state: open
labels: [feature]
---
Add \`product(a, b)\` in \`src/product.js\`, returning \`a * b\`, with a test.
`;

const bash = (command: string): { name: string; input: { command: string } } => ({ name: 'bash', input: { command } });
const answer = (id: string, overrides: Record<string, unknown>): { json: object } => ({
  json: { ...(rule(id).respond.json as object), ...overrides },
});

const UNCLASSIFIED = 'tests failing on the base not accounted for';
const CLAIM = {
  test: 'sum adds two numbers',
  unrelated: true,
  reason: 'sum() subtracts on main; issue #2 is product()',
};

test('a test already failing on the base blocks until the closure classifies it as unrelated; the claim reaches the comment', async () => {
  const issueFile = join(mkdtempSync(join(tmpdir(), 'issue-')), 'issue.md');
  writeFileSync(issueFile, PRODUCT_ISSUE);
  const productTest =
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { product } from '../src/product.js';\n\ntest('product multiplies', () => {\n  assert.equal(product(2, 3), 6);\n});\n";
  const session = {
    name: 'red base, other issue',
    rules: [
      {
        id: 'understand',
        when: { promptContains: 'Step initial.understand' },
        respond: answer('understand-answer', { summary: 'product() is new; test/sum.test.js already fails on main.' }),
      },
      {
        id: 'reproduce-write',
        when: { promptContains: 'Step continuation.reproduce', turn: 0 },
        respond: {
          toolUse: [
            bash(
              `cat > test/product.test.js <<'JS'\n${productTest}JS\ngit add test/product.test.js && git commit -qm 'Reproduce: product() is missing'`,
            ),
          ],
        },
      },
      {
        id: 'reproduce-answer',
        when: { promptContains: 'Step continuation.reproduce', turn: 1 },
        respond: rule('reproduce-answer').respond,
      },
      {
        id: 'implement-write',
        when: { promptContains: 'Step continuation.implement', turn: 0 },
        respond: {
          toolUse: [
            bash(
              "printf 'export function product(a, b) {\\n  return a * b;\\n}\\n' > src/product.js && git add src/product.js && git commit -qm 'Add product()'; node --test test/product.test.js",
            ),
          ],
        },
      },
      {
        id: 'implement-answer',
        when: { promptContains: 'Step continuation.implement', turn: 1 },
        respond: rule('work-answer').respond,
      },
      { id: 'review', when: { promptContains: 'Step verification.review' }, respond: rule('review-pass').respond },
      {
        id: 'classify',
        when: { promptContains: [UNCLASSIFIED, '- sum adds two numbers', 'pre_existing_failures'] },
        respond: answer('closure-answer', { pre_existing_failures: [CLAIM] }),
      },
      { id: 'closure', when: { promptContains: 'Step closure.issue' }, respond: rule('closure-answer').respond },
    ],
  };
  const { result, repoPath, model } = await runScenario({ session, issueFile });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().byRule['closure'], 1, 'the first closing, without the classification');
  assert.equal(model.stats().byRule['classify'], 1, 'the retry prompt named the test and asked for it');
  assert.match(result.reason, /classified unrelated by the closure: sum adds two numbers \(sum\(\) subtracts on main/);
  assert.match(readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8'), /a - b/, 'the old failure was left alone');
  assert.match(readFileSync(join(repoPath, 'src', 'product.js'), 'utf8'), /a \* b/);
  const comment = readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8');
  assert.match(
    comment,
    /`tests`: `npm test --silent` exited 1, accepted against the base \(baseline: ignore\): only failures already on base [0-9a-f]{12}: sum adds two numbers, each classified unrelated by the closure/,
  );
  assert.match(
    comment,
    /classified by the agent as unrelated to this issue:\n- `sum adds two numbers`: sum\(\) subtracts on main; issue #2 is product\(\)/,
  );
});
