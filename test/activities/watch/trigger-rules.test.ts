/**
 * What a comment asks for, pure: `/extend N` is a line of its own with a positive amount
 * (a mention or prose that merely contains it asks nothing), and the agent's own comments
 * (marked) never trigger, so a question the model wrote with `/extend 1000` in it cannot
 * raise the budget of its own run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_MARKER, mayTrigger, parseExtend } from '../../../src/activities/watch/trigger-rules.js';

test('`/extend N` on a line of its own, a positive amount of dollars', () => {
  assert.equal(parseExtend('/extend 5'), 5);
  assert.equal(parseExtend('Looks reasonable.\n  /extend $2.50  \nthanks'), 2.5);
  assert.equal(parseExtend('/EXTEND 10'), 10);
  for (const body of [
    '/extend',
    '/extend 0',
    '/extend -3',
    '/extend five',
    'please /extend 5',
    '/extend 5 dollars',
    '/extend 1e9',
  ])
    assert.equal(parseExtend(body), undefined, body);
});

test('the agent’s own comment, even with `/extend` in it, never triggers; strangers and bots neither', () => {
  const base = { author: 'alice', authorType: 'User', authorAssociation: 'COLLABORATOR' };
  assert.equal(mayTrigger({ ...base, body: '/extend 5' }), true);
  assert.equal(mayTrigger({ ...base, body: `${AGENT_MARKER}question x -->\nMay I?\n/extend 1000` }), false);
  assert.equal(mayTrigger({ ...base, authorAssociation: 'NONE', body: '/extend 5' }), false);
  assert.equal(mayTrigger({ ...base, author: 'ci[bot]', body: '/extend 5' }), false);
});
