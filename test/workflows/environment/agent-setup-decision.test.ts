/**
 * The agent-written setup's pure decisions (workflows/environment/agent-setup-decision.ts):
 * it runs only when the run allows it and the preflight stopped because the `tests`
 * command cannot run (not for unnamed failures, another validator, or another failure);
 * a proposal is accepted only when its tests ran (passing, or red with named tests); its
 * test command replaces the `tests` validator's; the failure lists every proposal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentDefinition } from '../../../src/contracts/definition.js';
import { PreflightStatus, type PreflightReport } from '../../../src/contracts/preflight.js';
import {
  acceptance,
  acceptedLines,
  agentSetupFailure,
  agentSetupTrigger,
  configSnippet,
  spentBy,
  whyNot,
  withTestCommand,
} from '../../../src/workflows/environment/agent-setup-decision.js';
import type { FailureInfo } from '../../../src/workflows/run/failure-info.js';

const stopped = (details: Record<string, unknown>, type = 'ENVIRONMENT_FAILED'): FailureInfo =>
  ({
    type,
    message: 'the environment cannot run `npm test --silent`',
    details: [details],
    cancelled: false,
  }) as FailureInfo;

const CANNOT_RUN = { command: 'npm test --silent', validator: 'tests', stop: 'cannot-run', cause: 'could-not-run' };

test('runs when allowed and the tests command cannot run; not otherwise', () => {
  assert.deepEqual(agentSetupTrigger(true, stopped(CANNOT_RUN)), {
    testCommand: 'npm test --silent',
    failure: 'the environment cannot run `npm test --silent`',
  });
  assert.equal(agentSetupTrigger(undefined, stopped(CANNOT_RUN)), undefined, 'a run that did not ask for it');
  assert.equal(agentSetupTrigger(false, stopped(CANNOT_RUN)), undefined, 'environment.agentSetup: false');
  assert.equal(agentSetupTrigger(true, stopped({ ...CANNOT_RUN, stop: 'unnamed' })), undefined, 'tests ran, unnamed');
  assert.equal(agentSetupTrigger(true, stopped({ ...CANNOT_RUN, validator: 'lint' })), undefined, 'not the tests');
  assert.equal(agentSetupTrigger(true, stopped(CANNOT_RUN, 'CONFIG_INVALID')), undefined, 'another failure');
  assert.equal(agentSetupTrigger(true, { ...stopped(CANNOT_RUN), cancelled: true }), undefined, 'cancelled');
  assert.equal(agentSetupTrigger(true, { ...stopped(CANNOT_RUN), details: [] }), undefined, 'no details');
});

const report = (status: PreflightStatus, command = 'sh t/run'): PreflightReport => ({
  checks: [{ validator: 'tests', command, status, summary: `\`${command}\` ${status}` }],
});

test('accepted only when the tests ran: passing or red with named tests', () => {
  assert.deepEqual(acceptance(report(PreflightStatus.Passed), 'sh t/run'), { accepted: true });
  assert.deepEqual(acceptance(report(PreflightStatus.Baseline), 'sh t/run'), { accepted: true });
  for (const status of [PreflightStatus.FailingOnBase, PreflightStatus.TimedOut]) {
    const verdict = acceptance(report(status), 'sh t/run');
    assert.equal(verdict.accepted, false, status);
  }
  assert.equal(acceptance(report(PreflightStatus.Passed, 'npm test'), 'sh t/run').accepted, false, 'another command');
  assert.equal(acceptance({ checks: [], skipped: 'a revived run' }, 'sh t/run').accepted, false);
});

test("the proposal's test command becomes the tests validator's; others untouched", () => {
  const definition = {
    validators: {
      tests: {
        type: 'command',
        command: 'npm test --silent',
        successWhen: 'exitCode:0',
        failurePattern: 'test-failed',
      },
      lint: { type: 'command', command: 'npm run lint', successWhen: 'exitCode:0', failurePattern: 'lint-error' },
    },
  } as unknown as AgentDefinition;
  const changed = withTestCommand(definition, 'sh t/run');
  assert.equal((changed.validators['tests'] as { command: string }).command, 'sh t/run');
  assert.equal((changed.validators['lint'] as { command: string }).command, 'npm run lint');
  assert.equal((definition.validators['tests'] as { command: string }).command, 'npm test --silent', 'not mutated');
});

test('what the user is offered: a .agent/config.json snippet', () => {
  const proposal = { setup: ['sh scripts/vendor.sh'], test: 'sh t/run' };
  assert.deepEqual(JSON.parse(configSnippet(proposal)), {
    commands: { setup: ['sh scripts/vendor.sh'], test: 'sh t/run' },
  });
  const lines = acceptedLines(proposal, false, 2);
  assert.match(lines[0] ?? '', /accepted \(attempt 2\).*`sh scripts\/vendor\.sh`.*test `sh t\/run`/);
  assert.ok(lines[1]?.endsWith(configSnippet(proposal)));
  assert.match(acceptedLines(proposal, true, 1)[0] ?? '', /from the cache/);
});

test('the failure lists what detection tried and every proposal with its first line', () => {
  const text = agentSetupFailure({ testCommand: 'npm test --silent', failure: 'npm: no package.json\nmore' }, [
    {
      setup: [],
      test: 'shtest',
      failure: '\nthe environment cannot run `shtest` (exit 127: not found)\n  sh: shtest: not found',
    },
    { setup: ['make deps'], test: 'sh t/run', failure: 'setup `make deps` failed (exit 2)', cached: true },
  ]);
  assert.match(text, /^no setup made the tests run: .*2 agent-written setups .*no work-step model request/);
  assert.match(text, /detected: npm: no package\.json$/m);
  assert.match(text, /1\. setup \(none\); test `shtest`: the environment cannot run `shtest`/);
  assert.match(text, /2\. setup `make deps`; test `sh t\/run` \(cached\): setup `make deps` failed/);
  assert.match(text, /To fix: set commands\.setup and commands\.test/);
});

test('why a proposal failed: its first line, without the code or the preflight\'s "no model request"', () => {
  assert.equal(
    whyNot(
      '\nENVIRONMENT_FAILED: the environment cannot run `shtest` (exit 127); no model request was made\n  sh: shtest',
    ),
    'the environment cannot run `shtest` (exit 127)',
  );
  assert.equal(whyNot('x'.repeat(400)).length, 300);
});

test("what a failed step spent counts: its failure's usedTokens and usedUsd", () => {
  assert.deepEqual(spentBy({ turns: 20, usedUsd: 0.5, usedTokens: 1200 }), {
    usage: { inputTokens: 1200, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.5,
  });
  assert.equal(spentBy({ usedUsd: 0, usedTokens: 0 }), undefined);
  assert.equal(spentBy(undefined), undefined);
});
