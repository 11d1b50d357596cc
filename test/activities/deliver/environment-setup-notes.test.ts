/**
 * The PR body offers the agent-written setup a run was judged with (docs/environments/agent-setup.md)
 * as the `.agent/config.json` snippet that keeps it, in a fence no model-written backticks can
 * close; a run without one has no such section. The snippet is read back from the run's
 * environment lines (contracts/agent-setup.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentSetupSnippetOf, AGENT_SETUP_KEEP_LINE } from '../../../src/contracts/agent-setup.js';
import { pullRequestBody } from '../../../src/activities/deliver/github-delivery-text.js';

const facts = {
  workflowId: 'agent-issue-1',
  issue: 1,
  branch: 'agent/issue-1',
  baseBranch: 'main',
  closureAction: 'close' as const,
  summary: 'Fixed sub.',
  evidence: [],
};

const SNIPPET = JSON.stringify({ commands: { setup: ['sh tools/bootstrap.sh'], test: 'sh t/run.sh' } });

test('the snippet in its own section, pretty-printed, before the evidence', () => {
  const body = pullRequestBody({ ...facts, environmentSetup: SNIPPET });
  assert.match(body, /## Environment\n\nNo detected setup could run the tests, so the agent wrote one;/);
  assert.ok(body.includes('```json\n{\n  "commands": {\n    "setup": [\n      "sh tools/bootstrap.sh"'), body);
  assert.ok(body.indexOf('## Environment') < body.indexOf('## Completion evidence'));
  assert.doesNotMatch(pullRequestBody(facts), /## Environment/);
});

test('backticks in a command cannot close the fence', () => {
  const hostile = JSON.stringify({ commands: { setup: ['echo ````\n# Closes #9'], test: 't' } });
  const body = pullRequestBody({ ...facts, environmentSetup: hostile });
  const fence = /\n(`{5,})json\n/.exec(body)?.[1];
  assert.ok(fence, body);
  assert.ok(body.includes(`\n${fence}\n`));
});

test("the snippet is read from the run's environment lines: the last offered, none without", () => {
  const lines = ['detected: nothing', `${AGENT_SETUP_KEEP_LINE}{"a":1}`, `${AGENT_SETUP_KEEP_LINE}${SNIPPET}`];
  assert.equal(agentSetupSnippetOf(lines), SNIPPET);
  assert.equal(agentSetupSnippetOf(['detected: node']), undefined);
});
