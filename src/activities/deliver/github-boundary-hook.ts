/**
 * The GitHub boundary hook: deliver a validated issue branch as a pull request.
 * Effects, in order: push the branch, open the PR, comment on the issue, set the
 * completion labels (label-only / label-and-close), close the issue (close /
 * label-and-close). It may run again after a crash or a retry, so each effect looks
 * before it acts and reports 'already-done' when it finds its earlier result.
 *
 * Failures: a rate limit or an authentication failure stops the hook with the thrown
 * AgentError (retryable with retryAfterMs / not retryable): nothing after it could
 * succeed either. Any other failure marks its effect failed with a pending action and
 * the effects that depend on it as skipped, giving a partial report. Comment, labels
 * and close wait for the pull request, so an issue is never closed without one.
 */
import { stat } from 'node:fs/promises';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { BoundaryHookInput } from '../../contracts/activities.js';
import type { BoundaryReport } from '../../contracts/run.js';
import type { GitHubConnector } from '../github/github-connector.js';
import type { GitHubPort } from '../github/github-port.js';
import { redactorFor } from '../edge/secret-redactor.js';
import { branchExists, isAncestor, statusLines } from '../workspace/git/repo-queries.js';
import { createGitHubIssueSource } from '../issues/github-issue-source.js';
import type { IssueSource } from '../issues/issue-source.js';
import { already, describeError, done, failed, report, skipped, succeeded, type Step } from './boundary-steps.js';
import { closesIssue, completionComment, pullRequestBody, pullRequestTitle } from './github-delivery-text.js';
import { pushBranch } from './push-branch.js';
import { importRunRefs } from '../workspace/private-repo/import-run-refs.js';

export interface GitHubBoundaryDeps {
  readonly gitHub: GitHubConnector;
  /** Environment git starts from for the push (default process.env; secrets are scrubbed). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Errors that make every later request fail as well: the hook stops and Temporal decides. */
const STOPPING: readonly string[] = [FailureType.GitHubRateLimited, FailureType.GitHubAuth];

interface Context {
  readonly input: BoundaryHookInput;
  readonly client: GitHubPort;
  readonly issues: IssueSource;
  readonly redact: (text: string) => string;
}

export async function runGitHubBoundaryHook(
  deps: GitHubBoundaryDeps,
  input: BoundaryHookInput,
): Promise<BoundaryReport> {
  await importRunRefs(input.worktreePath); // the run's work, from the agent's own repository
  if (input.mode !== 'github') {
    throw new AgentError(
      FailureType.BoundaryFailed,
      `--deliver pr opens a pull request for a GitHub issue; this run's issues are ${input.mode}`,
      { where: '--deliver', expected: 'pr with --issues github; branch, merge or squash with local issues' },
    );
  }
  const { settings, client } = await deps.gitHub(input.repoPath);
  const ctx: Context = {
    input,
    client,
    issues: createGitHubIssueSource(client),
    redact: redactorFor(settings.token),
  };
  const steps: Step[] = [];
  let prUrl: string | undefined;

  // A branch with nothing beyond its base has nothing to review: no push, no PR.
  const empty =
    (await branchExists(input.repoPath, input.branch)) &&
    (await isAncestor(input.repoPath, input.branch, input.baseBranch));
  if (empty) {
    steps.push(skipped('push', `${input.branch} has no commits ahead of ${input.baseBranch}`));
    steps.push(skipped('open-pr', 'nothing to review'));
  } else {
    const dirty = await uncommitted(input.worktreePath);
    const push = dirty
      ? failed(
          'push',
          `the worktree has uncommitted change(s) that would not reach the pull request: ${dirty}`,
          `commit or discard the changes in ${input.worktreePath}, then re-run the delivery`,
        )
      : await pushBranch({
          repoPath: input.repoPath,
          branch: input.branch,
          token: settings.token,
          apiBaseUrl: settings.baseUrl,
          ...(deps.env ? { env: deps.env } : {}),
        });
    steps.push(push);
    if (!succeeded(push)) {
      steps.push(
        skipped(
          'open-pr',
          `waiting for ${input.branch} to be pushed`,
          `open a pull request from ${input.branch} into ${input.baseBranch}`,
        ),
      );
    } else {
      const pr = await attempt(
        ctx,
        'open-pr',
        `open a pull request from ${input.branch} into ${input.baseBranch}`,
        () => openPullRequest(ctx),
      );
      steps.push(pr.step);
      prUrl = pr.url;
    }
  }

  const delivered = empty || prUrl !== undefined;
  const later = ['comment', ...(labels(input) ? ['label'] : []), 'close-issue'];
  if (!delivered) {
    for (const name of later) steps.push(skipped(name, 'waiting for the pull request'));
    return report(steps, { delivery: 'pr' });
  }
  steps.push((await attempt(ctx, 'comment', `comment on issue #${input.issue}`, () => comment(ctx, prUrl))).step);
  if (labels(input))
    steps.push(
      (await attempt(ctx, 'label', `set the completion labels on issue #${input.issue}`, () => relabel(ctx))).step,
    );
  steps.push(
    closesIssue(input.closureAction)
      ? (await attempt(ctx, 'close-issue', `close issue #${input.issue}`, () => close(ctx))).step
      : skipped('close-issue', `closure action is ${input.closureAction}: the issue stays open`),
  );
  return report(steps, { delivery: 'pr', ...(prUrl === undefined ? {} : { prUrl }) });
}

/** First uncommitted path of the worktree, if it still exists and has any. */
async function uncommitted(worktreePath: string): Promise<string | undefined> {
  if (
    !(await stat(worktreePath).then(
      (st) => st.isDirectory(),
      () => false,
    ))
  )
    return undefined;
  return (await statusLines(worktreePath, { includeUntracked: true }))[0]?.trim();
}

const labels = (input: BoundaryHookInput): boolean =>
  input.closureAction === 'label-only' || input.closureAction === 'label-and-close';

/** Runs one effect; stopping errors propagate, the rest become a failed step. */
async function attempt(
  ctx: Context,
  name: string,
  pending: string,
  run: () => Promise<{ step: Step; url?: string }>,
): Promise<{ step: Step; url?: string }> {
  try {
    return await run();
  } catch (error) {
    if (AgentError.isInstance(error) && STOPPING.includes(String(error.code))) throw error;
    return { step: failed(name, ctx.redact(describeError(error)), pending) };
  }
}

async function openPullRequest(ctx: Context): Promise<{ step: Step; url?: string }> {
  const { input, client } = ctx;
  const found = await findOpenPullRequest(ctx);
  if (found) return found;
  const issue = await client.getIssue(input.issue);
  try {
    const pr = await client.createPullRequest({
      title: pullRequestTitle(issue.title, input.issue),
      head: input.branch,
      base: input.baseBranch,
      body: pullRequestBody(input),
    });
    return { step: done('open-pr', `opened pull request #${pr.number}: ${pr.htmlUrl}`), url: pr.htmlUrl };
  } catch (error) {
    // 422 "a pull request already exists": another attempt won the race; use its PR.
    if (AgentError.isInstance(error) && error.details?.['status'] === 422) {
      const raced = await findOpenPullRequest(ctx);
      if (raced) return raced;
    }
    throw error;
  }
}

async function findOpenPullRequest(ctx: Context): Promise<{ step: Step; url: string } | undefined> {
  const open = await ctx.client.listPullRequests({ head: ctx.input.branch, state: 'open' });
  const pr = open.find((p) => p.head === ctx.input.branch);
  return pr
    ? { step: already('open-pr', `pull request #${pr.number} is already open: ${pr.htmlUrl}`), url: pr.htmlUrl }
    : undefined;
}

async function comment(ctx: Context, prUrl: string | undefined): Promise<{ step: Step }> {
  const { input } = ctx;
  const text = completionComment({ ...input, ...(prUrl === undefined ? {} : { prUrl }) });
  const outcome = await ctx.issues.comment(input.issue, text, { idempotencyKey: `${input.workflowId}:completion` });
  return {
    step:
      outcome === 'added'
        ? done('comment', `commented on issue #${input.issue}`)
        : already('comment', `completion comment already on issue #${input.issue}`),
  };
}

async function relabel(ctx: Context): Promise<{ step: Step }> {
  const { input } = ctx;
  if (input.labels.add.length === 0 && input.labels.remove.length === 0)
    return { step: skipped('label', 'no completion labels configured') };
  const current = (await ctx.client.getIssue(input.issue)).labels;
  const remove = new Set(input.labels.remove);
  const toAdd = [...new Set(input.labels.add)].filter((l) => !remove.has(l) && !current.includes(l));
  const toRemove = current.filter((l) => remove.has(l));
  if (toAdd.length === 0 && toRemove.length === 0)
    return { step: already('label', `labels of issue #${input.issue} are already set`) };
  await ctx.issues.relabel(input.issue, input.labels);
  const parts = [
    toAdd.length ? `added ${toAdd.join(', ')}` : '',
    toRemove.length ? `removed ${toRemove.join(', ')}` : '',
  ].filter(Boolean);
  return { step: done('label', `${parts.join('; ')} on issue #${input.issue}`) };
}

async function close(ctx: Context): Promise<{ step: Step }> {
  const { input } = ctx;
  const outcome = await ctx.issues.close(input.issue);
  return {
    step:
      outcome === 'closed'
        ? done('close-issue', `closed issue #${input.issue}`)
        : already('close-issue', `issue #${input.issue} was already closed`),
  };
}
