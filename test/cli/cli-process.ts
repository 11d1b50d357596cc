/**
 * Spawns the real client CLI (`node --import tsx src/client.ts <command> ...`) as a
 * child process for the CLI tests, and checks the shape of its failures. Under the suite
 * runner the child is the same sources bundled once (ISSUE_AGENT_TEST_CLI_BUNDLE,
 * test/helpers/cli-bundle-cache.ts): a third or less of tsx's start-up CPU per child.
 *
 * Safety: every child gets an explicit, non-empty TEMPORAL_ADDRESS, so ensureTemporal
 * never falls back to (and never starts) the local dev server on 127.0.0.1:7233.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

/** Nothing listens here: connecting fails fast (connection refused). */
export const DEAD_ADDRESS = '127.0.0.1:1';

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  readonly timedOut: boolean;
}

export interface RunningCli {
  readonly child: ChildProcess;
  /** Output so far (grows while the child runs). */
  readonly out: { stdout: string; stderr: string };
  readonly done: Promise<CliResult>;
  /** SIGKILLs the child (and does nothing when it already exited). */
  kill(): void;
}

/** The parent's environment minus anything that would change what the CLI talks to. */
export function cliEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'TEMPORAL_TASK_QUEUE',
    'TEMPORAL_UI_URL',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'GITHUB_TOKEN',
    'INIT_CWD', // relative paths resolve against the child's cwd (PROJECT_ROOT)
    'NODE_TEST_CONTEXT', // the child is a CLI, not a test file
    'DEBUG', // stack traces only appear with DEBUG: keep the no-stack checks meaningful
  ]) {
    delete env[key];
  }
  Object.assign(env, extra);
  if (!env.TEMPORAL_ADDRESS)
    throw new Error('cli tests must set TEMPORAL_ADDRESS (never the local dev server on 7233)');
  return env;
}

/**
 * How node runs `issue-agent`: the suite's CLI bundle when the runner built one
 * (scripts/run-tests.mjs), else the sources under tsx.
 */
export function cliCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  const entry = env.ISSUE_AGENT_TEST_CLI_BUNDLE ? join(env.ISSUE_AGENT_TEST_CLI_BUNDLE, 'client.mjs') : undefined;
  if (entry !== undefined && existsSync(entry)) return [entry];
  return ['--import', 'tsx', 'src/client.ts'];
}

export function startCli(
  args: readonly string[],
  options: { env: Readonly<Record<string, string>>; timeoutMs?: number },
): RunningCli {
  const started = Date.now();
  const child = spawn(process.execPath, [...cliCommand(), ...args], {
    cwd: PROJECT_ROOT,
    env: cliEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  let timedOut = false;
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs ?? 60_000);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: out.stdout, stderr: out.stderr, ms: Date.now() - started, timedOut });
    });
  });
  return { child, out, done, kill };
}

export async function runCli(
  args: readonly string[],
  options: { env: Readonly<Record<string, string>>; timeoutMs?: number },
): Promise<CliResult> {
  const running = startCli(args, options);
  try {
    return await running.done;
  } finally {
    running.kill();
  }
}

/** Lines that are not the CLI's own (node's warnings), ignored by the shape checks. */
const NOISE = /^\(node:\d+\)|^\(Use `node --trace-warnings/;

export function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((l) => l.trim() !== '' && !NOISE.test(l));
}

export function describeResult(result: CliResult): string {
  return `exit ${result.code} (signal ${result.signal}, ${result.ms} ms${result.timedOut ? ', TIMED OUT' : ''})\n--- stderr ---\n${result.stderr}--- stdout ---\n${result.stdout}`;
}

/** No stack frame anywhere in the output. */
export function assertNoStack(result: CliResult): void {
  for (const text of [result.stderr, result.stdout]) {
    assert.doesNotMatch(text, /^\s+at /m, `a stack trace was printed:\n${describeResult(result)}`);
  }
}

/**
 * A failure reported the way DESIGN §4 wants it: the expected exit code (or any
 * non-zero one), exactly one `error: ...` line on stderr containing every `mentions`
 * (strings or patterns), nothing on stdout, and no stack trace.
 */
export function assertCleanFailure(
  result: CliResult,
  expected: { code?: number; mentions: ReadonlyArray<string | RegExp> },
): string {
  assert.equal(result.timedOut, false, `the CLI did not finish:\n${describeResult(result)}`);
  if (expected.code === undefined) {
    assert.ok(result.code !== null && result.code !== 0, `expected a non-zero exit:\n${describeResult(result)}`);
  } else {
    assert.equal(result.code, expected.code, `unexpected exit code:\n${describeResult(result)}`);
  }
  assertNoStack(result);
  const lines = stderrLines(result);
  assert.equal(lines.length, 1, `expected a one-line message on stderr:\n${describeResult(result)}`);
  const line = lines[0]!;
  assert.match(line, /^error: \S/, `the message should start with "error:":\n${describeResult(result)}`);
  for (const m of expected.mentions) {
    if (typeof m === 'string')
      assert.ok(line.includes(m), `the message should mention ${JSON.stringify(m)}:\n${describeResult(result)}`);
    else assert.match(line, m, `the message should match ${m}:\n${describeResult(result)}`);
  }
  assert.equal(result.stdout.trim(), '', `nothing should be printed on stdout:\n${describeResult(result)}`);
  return line;
}
