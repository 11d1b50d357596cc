/**
 * requireModelCredentials: without a key or a base URL the error names what to set, and its
 * offline hint is a command an installed copy has (`issue-agent model-server`), not only the
 * clone's `npm run model-server -- --session demo/session.json` (no npm script, no demo/ in the
 * package).
 */
import { START_COMMANDS } from '../../src/cli/flags/start-commands.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../src/contracts/errors.js';
import { hasModelCredentials, requireModelCredentials } from '../../src/host/model-credentials.js';

test('a key or a base URL counts as credentials; blanks do not', () => {
  assert.equal(hasModelCredentials({ ANTHROPIC_API_KEY: 'sk-ant-fake' }), true);
  assert.equal(hasModelCredentials({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }), true);
  assert.equal(hasModelCredentials({ ANTHROPIC_API_KEY: ' ', ANTHROPIC_BASE_URL: '' }), false);
});

test('no credentials: MODEL_AUTH names the variables and the installed offline server command', () => {
  assert.throws(
    () => requireModelCredentials({}),
    (error: unknown) => {
      assert.ok(error instanceof AgentError);
      assert.equal(error.code, 'MODEL_AUTH');
      assert.match(error.message, /ANTHROPIC_API_KEY/);
      assert.match(error.message, /ANTHROPIC_BASE_URL/);
      assert.match(error.message, /`issue-agent model-server --session FILE`/);
      return true;
    },
  );
});

test("start-batch's help names the offline server an installed copy has", () => {
  const summary = START_COMMANDS['start-batch']?.summary ?? '';
  assert.match(summary, /`issue-agent model-server --session FILE`/);
});
