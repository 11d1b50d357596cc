/**
 * `extend` and `reply`: the two answers a waiting run takes from a person (issue 40),
 * found like status/retry/cancel find it (--issue, --repo, --agent). `extend` adds to
 * the budget of a run paused on it (the `raiseBudget` update, so a bad value or a run
 * that is gone is an error here, not a warning in the run); `reply` sends the `answer`
 * update to a run that asked a question, then adds the answer to the local issue's
 * comments (on GitHub an issue comment is the answer itself).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { AgentError, HostErrorCode, UsageError } from '../../contracts/errors.js';
import { extendedBudget } from '../../contracts/human-loop.js';
import type { RunProgress } from '../../contracts/run.js';
import { createLocalIssueStore, localIssuePath } from '../../activities/issues/local-issue-store.js';
import { readRepoConfig } from '../../definition/repo-config/read-repo-config.js';
import { answerUpdate, progressQuery, raiseBudgetUpdate } from '../../workflows/run/messages.js';
import type { runAgentWorkflow } from '../../workflows/run-agent.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalNumber, requireIssue, type ParsedFlags } from '../flags/parse-flags.js';
import type { CliTemporal } from '../../host/temporal/temporal-client.js';
import { withRun } from './run-control.js';
import { printLine } from '../../host/terminal-text.js';

const QUERY_DEADLINE_MS = 5000;

async function liveProgress(cli: CliTemporal, workflowId: string, verb: string): Promise<RunProgress> {
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  const status = (await handle.describe()).status.name;
  if (status !== 'RUNNING') {
    throw new AgentError(HostErrorCode.RunNotWaiting, `run ${workflowId} is ${status}: there is nothing to ${verb}`, {
      where: '--issue',
      expected: 'a running run (issue-agent status shows it)',
    });
  }
  return cli.client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(progressQuery));
}

/** Which limit stopped the run, from the pause's reason (pricing.ts's budget check, run-state.ts word them). PURE. */
export function boundLimit(reason: string): 'usd' | 'tokens' | undefined {
  if (/\btokens?\b/i.test(reason)) return 'tokens';
  if (/\bUSD\b|\bcost\b/i.test(reason)) return 'usd';
  return undefined;
}

/** Bad input is a usage error before anything connects. */
function checkedFlags(name: string, argv: readonly string[]): ParsedFlags | undefined {
  const flags = commandFlags(name, argv);
  if (flags !== undefined) requireIssue(flags);
  return flags;
}

export { extendedBudget };

export async function extendCommand(argv: readonly string[]): Promise<number> {
  const given = checkedFlags('extend', argv);
  if (given === undefined) return 0;
  const usd = optionalNumber(given, 'usd');
  const tokens = optionalNumber(given, 'tokens', { integer: true });
  if (usd === undefined && tokens === undefined)
    throw new UsageError('extend needs --usd X or --tokens N (the amount added to the limit)', '--usd');
  return withRun('extend', argv, async ({ cli, workflowId }) => {
    const progress = await liveProgress(cli, workflowId, 'extend');
    if (progress.phase !== 'budget-exhausted') {
      throw new AgentError(
        HostErrorCode.RunNotWaiting,
        `run ${workflowId} is not paused on its budget (phase ${progress.phase}); nothing was changed`,
        { where: '--issue', expected: 'a run whose status says "waiting: budget exhausted"' },
      );
    }
    const bound = boundLimit(progress.waiting?.reason ?? '');
    if (bound === 'tokens' && tokens === undefined)
      throw new UsageError(
        `the run is paused on its token limit (${progress.waiting?.reason}); add --tokens N`,
        '--tokens',
      );
    if (bound === 'usd' && usd === undefined)
      throw new UsageError(`the run is paused on its cost limit (${progress.waiting?.reason}); add --usd X`, '--usd');
    const raise = extendedBudget(progress, {
      ...(usd === undefined ? {} : { maxUsd: usd }),
      ...(tokens === undefined ? {} : { maxTokens: tokens }),
    });
    const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
    const now = await handle.executeUpdate(raiseBudgetUpdate, { args: [raise] });
    const limits = [
      now.maxUsd === undefined ? undefined : `$${now.maxUsd}`,
      now.maxTokens === undefined ? undefined : `${now.maxTokens} tokens`,
    ].filter((x) => x !== undefined);
    printLine(
      process.stdout,
      `budget of ${workflowId} raised: limit now ${limits.join(' · ')} (spent $${progress.costUsd.toFixed(4)}, ${progress.tokensTotal} tokens); the run goes on`,
    );
    return 0;
  });
}

/** Who answers from this machine: the local user. */
function localAuthor(): string {
  try {
    return userInfo().username || 'local user';
  } catch {
    return process.env.USER ?? 'local user';
  }
}

/** The answer joins the local issue's comments (a run on GitHub issues is answered by an issue comment). */
async function commentLocally(repoPath: string, issue: number, text: string, workflowId: string): Promise<void> {
  const config = await readRepoConfig(repoPath).catch(() => undefined);
  if (config?.issues === 'github' || !existsSync(localIssuePath(repoPath, issue))) return;
  await createLocalIssueStore(repoPath).comment(issue, text, { idempotencyKey: `reply ${workflowId} ${randomUUID()}` });
}

export async function replyCommand(argv: readonly string[]): Promise<number> {
  const given = checkedFlags('reply', argv);
  if (given === undefined) return 0;
  const raw = given['text'];
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new UsageError('reply needs the answer: issue-agent reply --issue N "text"', '--text');
  const text = raw.trim();
  return withRun('reply', argv, async ({ cli, workflowId, local }) => {
    const progress = await liveProgress(cli, workflowId, 'answer');
    if (progress.waiting?.kind !== 'answer' && progress.waiting?.kind !== 'plan') {
      throw new AgentError(
        HostErrorCode.RunNotWaiting,
        `run ${workflowId} asked no question and has no plan to approve (phase ${progress.phase}); the reply was not sent`,
        { where: '--issue', expected: 'a run whose status says "waiting for an answer" or "the plan needs approval"' },
      );
    }
    const author = localAuthor();
    const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
    // The comment first: the run writes the issue file (its labels) as soon as it has the answer.
    if (local !== undefined) await commentLocally(local, progress.issue, `@${author}: ${text}`, workflowId);
    await handle.executeUpdate(answerUpdate, { args: [{ author, text }] });
    printLine(process.stdout, `answer sent to ${workflowId} as ${author}; the run goes on`);
    return 0;
  });
}
