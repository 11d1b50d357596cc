/**
 * `validate` and `start-run` apply one rule to unbound prompt variables (issue 37), as
 * processes: an unbound `{uv-x}` in a step the run never reaches is a warning for both
 * (validate exits 0; start-run goes on to connect), one in a step it reaches is an
 * error for both, and start-run stops before connecting, so no workflow, worktree,
 * branch or model request can exist. A parameter the run has no value for counts only
 * for start-run, which knows the run's values.
 *
 * TEMPORAL_ADDRESS points where nothing listens: a start-run that passed its checks
 * fails there (exit 1, naming TEMPORAL_ADDRESS), one that did not never gets there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { copyFixture, editJson, writeText } from '../definition/temp-dirs.js';
import { twoFlowAgent, WORK_PROMPT } from '../definition/two-flow-agent.js';
import { assertCleanFailure, DEAD_ADDRESS, describeResult, runCli } from './cli-process.js';

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };
const cli = (...args: string[]) => runCli(args, { env, timeoutMs: 60_000 });
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('validate and start-run on unbound prompt variables', { concurrency: 2 }, () => {
  let repo: string;
  let branches: string;
  let worktrees: string;

  before(async () => {
    repo = (await createSampleRepo()).repoPath;
    branches = git(repo, 'branch', '--list');
    worktrees = git(repo, 'worktree', 'list', '--porcelain');
  });
  after(async () => rm(repo, { recursive: true, force: true }));

  const startRun = (agent: string, ...extra: string[]) =>
    cli('start-run', '--issue', '1', '--repo', repo, '--agent', agent, '--topic', 'x', ...extra);
  const assertReachedTemporal = (result: Awaited<ReturnType<typeof cli>>): void => {
    assertCleanFailure(result, { code: 1, mentions: ['TEMPORAL_ADDRESS', DEAD_ADDRESS] });
  };

  it('in a step the run never reaches: a warning for validate, and start-run goes on', async () => {
    const agent = twoFlowAgent();
    const validated = await cli('validate', '--agent', agent);
    assert.equal(validated.code, 0, describeResult(validated));
    assert.match(
      validated.stdout,
      /warning prompts\/steps\/continuation\/other\/f_default\.md#: PROMPT_VARIABLE_UNBOUND/,
    );
    assertReachedTemporal(await startRun(agent));
  });

  it('in a step the run reaches: an error for both; start-run stops before connecting, naming step, file and variable', async () => {
    const agent = twoFlowAgent();
    writeText(agent, WORK_PROMPT, 'Continue {uv-topic}; see {uv-ticket_url}.\n');
    const validated = await cli('validate', '--agent', agent);
    assert.equal(validated.code, 2, describeResult(validated));
    assert.match(
      validated.stderr,
      /error {3}prompts\/steps\/continuation\/work\/f_default\.md#: PROMPT_VARIABLE_UNBOUND/,
    );
    const started = await startRun(agent);
    const line = assertCleanFailure(started, {
      code: 2,
      mentions: ['CONFIG_INVALID', WORK_PROMPT, "step 'continuation.work'", '{uv-ticket_url}', "entry 'initial.work'"],
    });
    assert.doesNotMatch(line, /TEMPORAL_ADDRESS/, 'it never tried to connect');
    assert.equal(git(repo, 'branch', '--list'), branches, 'no branch was made');
    assert.equal(git(repo, 'worktree', 'list', '--porcelain'), worktrees, 'no worktree was made');
  });

  it('an optional parameter a reachable prompt uses: start-run needs its value, validate cannot know it', async () => {
    const agent = copyFixture('valid/upstream-vocabulary');
    editJson(agent, 'agent.json', (a) => {
      a.parameters.ticket = { type: 'string', description: 'Ticket', required: false, cli: '--ticket' };
    });
    writeText(agent, WORK_PROMPT, 'Continue {uv-topic} for ticket {uv-ticket}.\n');
    const validated = await cli('validate', '--agent', agent);
    assert.equal(validated.code, 0, describeResult(validated));
    assertCleanFailure(await startRun(agent), {
      code: 2,
      mentions: [WORK_PROMPT, '{uv-ticket}', 'give --ticket VALUE'],
    });
    assertReachedTemporal(await startRun(agent, '--ticket', 'T-1'));
  });
});
