/**
 * The client CLI on bad input, as a process: usage errors exit 2 with a one-line
 * message naming the flag, bad paths and an unreachable server fail with a one-line
 * message naming the path / TEMPORAL_ADDRESS, and nothing ever prints a stack trace.
 *
 * Every child runs with TEMPORAL_ADDRESS pointing at an address nothing listens on,
 * so no case can reach (or start) a real Temporal server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import {
  assertCleanFailure,
  assertNoStack,
  DEAD_ADDRESS,
  describeResult,
  runCli,
  stderrLines,
  type CliResult,
} from './cli-process.js';
import { INVALID_DEFINITIONS } from '../definition/invalid-definition-cases.js';
import { materialise } from '../definition/mutate-definition.js';

/** An agent directory from the bad-input corpus (test/definition/invalid-definition-cases.ts). */
function invalidAgent(name: string): string {
  const mutation = INVALID_DEFINITIONS.find((c) => c.name === name);
  if (mutation === undefined) throw new Error(`no invalid definition case ${name}`);
  return materialise(mutation);
}

after(teardownEnv);

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };
const execFileAsync = promisify(execFile);
const cli = (...args: string[]) => runCli(args, { env, timeoutMs: 60_000 });

/** Independent processes: run a handful at once to keep the file fast. */
const CONCURRENCY = 3;

describe('usage errors exit 2 naming the flag', { concurrency: CONCURRENCY }, () => {
  for (const [flag, value] of [
    ['--concurrency', '0'],
    ['--concurrency', '51'],
    ['--poll-interval', 'soon'],
    ['--label', 'bad!label'],
    ['--issues', 'jira'],
  ] as const) {
    it(`watch ${flag} ${value}`, async () => {
      assertCleanFailure(await cli('watch', flag, value), { code: 2, mentions: [flag] });
    });
  }

  it('start-run --issue abc', async () => {
    assertCleanFailure(await cli('start-run', '--issue', 'abc'), { code: 2, mentions: ['--issue', 'abc'] });
  });

  it('start-run without --issue', async () => {
    assertCleanFailure(await cli('start-run'), { code: 2, mentions: ['--issue', 'required'] });
  });

  for (const bad of ['0', '-3', '1.5']) {
    it(`start-run --issue ${bad}`, async () => {
      assertCleanFailure(await cli('start-run', '--issue', bad), {
        code: 2,
        mentions: ['--issue', 'positive integer', `"${bad}"`],
      });
    });
  }

  it('start-run --issue=-3 (the value form) says it must be a positive integer', async () => {
    assertCleanFailure(await cli('start-run', '--issue=-3'), {
      code: 2,
      mentions: ['--issue', 'positive integer', '-3'],
    });
  });

  it('a flag is still a flag after a string flag: --issue --repo x says --issue needs its value', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '--repo', 'x'), { code: 2, mentions: ['--issue'] });
  });

  it('an unknown flag --bogus', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '1', '--bogus'), { code: 2, mentions: ['--bogus'] });
  });

  it('a stray positional argument', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '1', 'extra'), { code: 2, mentions: ['extra'] });
  });

  it('--issues carrier-pigeon', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '1', '--issues', 'carrier-pigeon'), {
      code: 2,
      mentions: ['--issues', 'carrier-pigeon'],
    });
  });

  it('an unknown command', async () => {
    assertCleanFailure(await cli('frobnicate', '--issue', '1'), { code: 2, mentions: ['frobnicate', 'start-run'] });
  });

  it('no command at all', async () => {
    assertCleanFailure(await cli(), { code: 2, mentions: ['unknown command'] });
  });

  for (const command of ['status', 'retry', 'cancel', 'extend', 'reply']) {
    it(`${command} --issue abc`, async () => {
      assertCleanFailure(await cli(command, '--issue', 'abc'), { code: 2, mentions: ['--issue', 'abc'] });
    });
    it(`${command} without --issue`, async () => {
      assertCleanFailure(await cli(command), { code: 2, mentions: ['--issue'] });
    });
    it(`${command} --bogus`, async () => {
      assertCleanFailure(await cli(command, '--issue', '1', '--bogus'), { code: 2, mentions: ['--bogus'] });
    });
  }

  it('extend without an amount', async () => {
    assertCleanFailure(await cli('extend', '--issue', '1'), { code: 2, mentions: ['--usd', '--tokens'] });
  });
  for (const bad of [
    ['--usd', '-3'],
    ['--usd', 'five'],
    ['--tokens', '1.5'],
  ]) {
    it(`extend ${bad.join(' ')}`, async () => {
      assertCleanFailure(await cli('extend', '--issue', '1', ...bad), { code: 2, mentions: [bad[0]!] });
    });
  }
  it('reply without an answer', async () => {
    assertCleanFailure(await cli('reply', '--issue', '1'), { code: 2, mentions: ['reply needs the answer'] });
  });
  it('reply with the answer twice', async () => {
    assertCleanFailure(await cli('reply', '--issue', '1', '--text', 'a', 'b'), { code: 2, mentions: ['--text'] });
  });

  it('reset without --to-step', async () => {
    assertCleanFailure(await cli('reset', '--issue', '1'), { code: 2, mentions: ['--to-step', 'required'] });
  });
  for (const bad of ['0', 'two', '1.5']) {
    it(`reset --to-step ${bad}`, async () => {
      assertCleanFailure(await cli('reset', '--issue', '1', '--to-step', bad), { code: 2, mentions: ['--to-step'] });
    });
  }
  it('reset without --issue', async () => {
    assertCleanFailure(await cli('reset', '--to-step', '2'), { code: 2, mentions: ['--issue'] });
  });

  it('validate --bogus', async () => {
    assertCleanFailure(await cli('validate', '--bogus'), { code: 2, mentions: ['--bogus'] });
  });
});

describe('--help exits 0 and documents the flags', { concurrency: CONCURRENCY }, () => {
  const documented: Record<string, readonly string[]> = {
    'start-run': ['--issue', '--agent', '--repo', '--issues', '--follow', '--json', '--detach', '--help'],
    status: ['--issue', '--agent', '--json', '--help'],
    retry: ['--issue', '--agent', '--prompt', '--help'],
    cancel: ['--issue', '--agent', '--help'],
    extend: ['--issue', '--repo', '--agent', '--usd', '--tokens', '--help'],
    reply: ['--issue', '--repo', '--agent', '--text', '--help'],
    reset: ['--issue', '--repo', '--agent', '--to-step', '--reason', '--help'],
    validate: ['--agent', '--help'],
  };
  for (const [command, flags] of Object.entries(documented)) {
    it(`${command} --help`, async () => {
      const result = await cli(command, '--help');
      assert.equal(result.code, 0, describeResult(result));
      assertNoStack(result);
      assert.match(
        result.stdout,
        new RegExp(`^Usage: issue-agent ${command} \\[flags\\]`, 'm'),
        describeResult(result),
      );
      for (const flag of flags) {
        assert.match(
          result.stdout,
          new RegExp(`^\\s+${flag}\\b.*\\S`, 'm'),
          `--help of ${command} should document ${flag}:\n${result.stdout}`,
        );
      }
      assert.match(result.stdout, /TEMPORAL_ADDRESS/, 'the help names the environment it reads');
      assert.equal(stderrLines(result).length, 0, `--help prints nothing on stderr:\n${describeResult(result)}`);
    });
  }

  it('--help wins over a missing --issue (no server needed)', async () => {
    const result = await cli('status', '--help');
    assert.equal(result.code, 0, describeResult(result));
  });
});

describe('bad repository, issue and server', { concurrency: CONCURRENCY }, () => {
  let sampleRepo: string;
  let notARepo: string;

  before(async () => {
    sampleRepo = (await createSampleRepo()).repoPath;
    notARepo = await mkdtemp(join(tmpdir(), 'cli-not-a-repo-'));
  });

  after(async () => {
    await rm(sampleRepo, { recursive: true, force: true });
    await rm(notARepo, { recursive: true, force: true });
  });

  it('--repo /nonexistent/path names the path', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '1', '--repo', '/nonexistent/path'), {
      code: 2,
      mentions: ['/nonexistent/path', '--repo'],
    });
  });

  it('--repo <an unreachable git URL with credentials> names the URL without them', async () => {
    const secret = ['hunter', '2-secret'].join('');
    const stateDir = await mkdtemp(join(tmpdir(), 'cli-state-'));
    const result = await runCli(
      ['start-run', '--issue', '1', '--repo', `https://user:${secret}@127.0.0.1:9/none.git`],
      { env: { ...env, ISSUE_AGENT_STATE_DIR: stateDir }, timeoutMs: 60_000 },
    );
    assertCleanFailure(result, { code: 2, mentions: ['cannot reach https://127.0.0.1:9/none.git', '--repo'] });
    assert.ok(!`${result.stdout}${result.stderr}`.includes(secret), describeResult(result));
    await rm(stateDir, { recursive: true, force: true });
  });

  it('worker with a bad sandbox or cache setting in its environment names the variable before it connects', async () => {
    for (const [name, value] of [
      ['ISSUE_AGENT_SETUP_PORTS', '80,http'],
      ['ISSUE_AGENT_CACHE_SCOPE', 'everyone'],
      ['ISSUE_AGENT_SANDBOX_UID', 'nobody'],
    ] as const) {
      const result = await runCli(['worker'], { env: { ...env, [name]: value }, timeoutMs: 60_000 });
      assertCleanFailure(result, { mentions: [name, value] });
      assert.doesNotMatch(
        `${result.stdout}${result.stderr}`,
        /127\.0\.0\.1:1\b|reach|connect/i,
        describeResult(result),
      );
    }
  });

  it('worker --host-id with a space names the flag', async () => {
    assertCleanFailure(await cli('worker', '--host-id', 'bad id'), { mentions: ['--host-id', 'bad id'] });
  });

  it('run outside a git repository without --repo: the error names the current directory, not the flag', async () => {
    const result = await runCli(['start-run', '--issue', '1'], {
      env: { ...env, INIT_CWD: notARepo },
      timeoutMs: 60_000,
    });
    assertCleanFailure(result, { code: 2, mentions: [notARepo, 'not a git repository', 'the current directory'] });
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /at --repo/, describeResult(result));
  });

  it('--repo <a directory that is not a git repository> says so', async () => {
    assertCleanFailure(await cli('start-run', '--issue', '1', '--repo', notARepo), {
      code: 2,
      mentions: [notARepo, 'not a git repository'],
    });
  });

  it('--repo <a regular file> says it is not a directory', async () => {
    const file = join(notARepo, 'a-file');
    await writeFile(file, 'not a repository\n');
    assertCleanFailure(await cli('start-run', '--issue', '1', '--repo', file), {
      code: 2,
      mentions: [file, 'is not a directory', '--repo'],
    });
  });

  it('--repo <a repository with no commit> is refused before any run starts', async () => {
    const empty = join(notARepo, 'empty-repo');
    await mkdir(join(empty, '.agent', 'issues'), { recursive: true });
    await execFileAsync('git', ['init', '-q', empty]);
    await writeFile(localIssuePath(empty, 1), '---\ntitle: t\nstate: open\n---\nbody\n');
    const result = await cli('start-run', '--issue', '1', '--repo', empty);
    assertCleanFailure(result, { code: 2, mentions: [empty, 'has no commits yet', '--repo'] });
    assert.doesNotMatch(result.stdout, /started run/, describeResult(result));
  });

  it("from a subdirectory of the repository, start-run reads the root's issues", async () => {
    const sub = join(sampleRepo, 'deep', 'er');
    await mkdir(sub, { recursive: true });
    const result = await runCli(['start-run', '--issue', '78'], { env: { ...env, INIT_CWD: sub }, timeoutMs: 60_000 });
    assertCleanFailure(result, { mentions: [localIssuePath(sampleRepo, 78)] });
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /deep\/er\/\.agent/, describeResult(result));
  });

  it('--issue 77 without .agent/issues/77.md names the issue file', async () => {
    const line = assertCleanFailure(await cli('start-run', '--issue', '77', '--repo', sampleRepo), {
      mentions: [localIssuePath(sampleRepo, 77)],
    });
    assert.match(line, /#77|77\.md/);
  });

  it('an unknown --agent directory fails before connecting, naming it', async () => {
    assertCleanFailure(
      await cli('start-run', '--issue', '1', '--repo', sampleRepo, '--agent', '/nonexistent/agent-dir'),
      { code: 2, mentions: ['/nonexistent/agent-dir'] },
    );
  });

  /**
   * How long the CLI waits for a dead server, net of the process start-up (tsx, the
   * imports): the same command failing just before it connects is the baseline, so
   * the check holds on a loaded machine too.
   */
  async function giveUpTime(
    args: string[],
    baselineArgs: string[],
    baselineCode: number,
  ): Promise<{ result: CliResult; netMs: number; baselineMs: number }> {
    const baseline = await runCli(baselineArgs, { env, timeoutMs: 60_000 });
    assert.equal(baseline.code, baselineCode, describeResult(baseline));
    const result = await runCli(args, { env, timeoutMs: 90_000 });
    return { result, netMs: result.ms - baseline.ms, baselineMs: baseline.ms };
  }

  it('a server that does not answer: non-zero naming TEMPORAL_ADDRESS, within ~20 s', async (t) => {
    const { result, netMs, baselineMs } = await giveUpTime(
      ['start-run', '--issue', '1', '--repo', sampleRepo],
      ['start-run', '--issue', '77', '--repo', sampleRepo],
      1,
    );
    assertCleanFailure(result, { mentions: ['TEMPORAL_ADDRESS', DEAD_ADDRESS] });
    t.diagnostic(`gave up after ${result.ms} ms (start-up baseline ${baselineMs} ms)`);
    assert.ok(
      netMs < 20_000,
      `took ${result.ms} ms (${netMs} ms more than failing before connecting) to give up on the server`,
    );
  });

  for (const command of ['status', 'retry', 'cancel']) {
    it(`${command} against a server that does not answer names TEMPORAL_ADDRESS`, async (t) => {
      const { result, netMs, baselineMs } = await giveUpTime(
        [command, '--issue', '1'],
        [command, '--issue', '1', '--agent', '/nonexistent/agent-dir'],
        2,
      );
      assertCleanFailure(result, { mentions: ['TEMPORAL_ADDRESS', DEAD_ADDRESS] });
      t.diagnostic(`gave up after ${result.ms} ms (start-up baseline ${baselineMs} ms)`);
      assert.ok(
        netMs < 20_000,
        `took ${result.ms} ms (${netMs} ms more than failing before connecting) to give up on the server`,
      );
    });
  }
});

describe('validate', { concurrency: CONCURRENCY }, () => {
  it('validate --agent /nonexistent exits 2 naming the directory', async () => {
    const result = await cli('validate', '--agent', '/nonexistent');
    assert.equal(result.code, 2, describeResult(result));
    assertNoStack(result);
    // validate lists every problem (several lines are fine); the directory is named.
    assert.match(result.stderr, /\/nonexistent\b/, describeResult(result));
    assert.equal(result.stdout.trim(), '', describeResult(result));
  });

  it('validate (the default agent) exits 0 with a summary', async () => {
    const result = await cli('validate');
    assert.equal(result.code, 0, describeResult(result));
    assertNoStack(result);
    assert.match(result.stdout, /is valid/, describeResult(result));
  });

  it('validate --agent <an invalid definition> exits 2 listing the problem', async () => {
    const result = await cli('validate', '--agent', invalidAgent('entry-step-unknown'));
    assert.equal(result.code, 2, describeResult(result));
    assertNoStack(result);
    assert.match(result.stderr, /invalid/, describeResult(result));
    assert.match(
      result.stderr,
      /^error\s+steps_registry\.json#\/entryStep: UNKNOWN_ENTRY_STEP .*initial\.start/m,
      describeResult(result),
    );
    assert.equal(result.stdout.trim(), '', describeResult(result));
  });

  it('validate --agent <a definition with a missing prompt file> names the file', async () => {
    const result = await cli('validate', '--agent', invalidAgent('prompt-file-missing'));
    assert.equal(result.code, 2, describeResult(result));
    assertNoStack(result);
    assert.match(result.stderr, /continuation/, describeResult(result));
  });
});

describe('eval: task files and modes', { concurrency: CONCURRENCY }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-eval-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a gate mode over the shipped JSON tasks says it needs SWE-bench tasks, naming the flag', async () => {
    assertCleanFailure(await cli('eval', '--no-op'), { code: 2, mentions: ['--no-op', 'SWE-bench'] });
  });

  it('--limit without --mine names --limit', async () => {
    assertCleanFailure(await cli('eval', '--limit', '3'), { code: 2, mentions: ['--limit', '--mine'] });
  });

  it('--mine on a directory that is not a git repository names it', async () => {
    assertCleanFailure(await cli('eval', '--mine', dir), { code: 2, mentions: ['--mine', dir] });
  });

  it('a SWE-bench line without FAIL_TO_PASS names the line and the field', async () => {
    const file = join(dir, 'tasks.jsonl');
    const row = { instance_id: 'a__b-1', repo: 'a/b', base_commit: 'abc1234', patch: 'p', test_patch: 't' };
    const good = { ...row, problem_statement: 'x', FAIL_TO_PASS: '["t1"]', PASS_TO_PASS: [] };
    const { FAIL_TO_PASS: _dropped, ...bad } = { ...good, instance_id: 'a__b-2' };
    await writeFile(file, `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
    assertCleanFailure(await cli('eval', '--tasks', file, '--oracle'), {
      code: 2,
      mentions: [`${file}:2#/FAIL_TO_PASS`],
    });
  });

  it('a SWE-bench repo without a local clone says how to name one', async () => {
    const file = join(dir, 'one.jsonl');
    const task = {
      instance_id: 'a__b-1',
      repo: 'a/b',
      base_commit: 'abc1234',
      patch: 'p',
      test_patch: 't',
      problem_statement: 'x',
      FAIL_TO_PASS: ['t1'],
      PASS_TO_PASS: [],
    };
    await writeFile(file, `${JSON.stringify(task)}\n`);
    assertCleanFailure(await cli('eval', '--tasks', file, '--oracle', '--repos', dir), {
      code: 2,
      mentions: [`${file}:1#/repo`, '--repos', 'a__b'],
    });
  });
});
