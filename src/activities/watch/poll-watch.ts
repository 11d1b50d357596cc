/**
 * One poll of a watched repository: which issues carry the trigger label, which new
 * comments mention the trigger (from allowed authors, see trigger-rules.ts), the other new
 * issue comments of allowed authors (an answer, when the issue's run asked a question;
 * `/extend 5`, more budget for it), and
 * which new reviews request changes on the pull requests the watcher delivered, and which
 * of their checks failed (poll-checks.ts).
 *
 * Cheap on an idle repository: the label and comment lists are conditional (ETag), the
 * comments are read `since` the last one handled. Rate limits are honoured, not fought:
 * a refused request (403/429 with retry-after or a spent limit) or a last answer with
 * no requests left becomes a wait the workflow sleeps before its next poll.
 *
 * Local issues have no authors or comment feed: only the label triggers there.
 */
import { join } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { PollWatchInput, PollWatchOutput, WatchCursor, WatchTrigger } from '../../contracts/watch.js';
import type { RateLimitState } from '../github/github-watch-port.js';
import { ReviewState } from '../github/github-watch-port.js';
import type { IssueSource } from '../issues/issue-source.js';
import type { WatchConnector } from './watch-connector.js';
import { mayTrigger, parseExtend, parseMention } from './trigger-rules.js';
import { pollChecks } from './poll-checks.js';
import { COMMENT_TEMPLATES_DIR } from './comment-templates.js';

const MAX_SEEN = 200;
/** Below this many requests left, the watcher waits for the window to reset. */
export const RATE_LIMIT_FLOOR = 5;

export interface PollDeps {
  readonly github: WatchConnector;
  readonly issues: (repoPath: string) => IssueSource;
  readonly now?: () => number;
  /** Where prompts/harness is (tests point it elsewhere). */
  readonly harnessDir?: string;
}

const HARNESS_DIR = join(COMMENT_TEMPLATES_DIR, '..', 'harness');

export async function pollWatch(deps: PollDeps, input: PollWatchInput): Promise<PollWatchOutput> {
  if (input.issueSource === 'local') {
    const open = await deps.issues(input.repoPath).list({ label: input.label, state: 'open' });
    return {
      cursor: input.cursor,
      triggers: open.map((i): WatchTrigger => ({ kind: 'label', issue: i.number, title: i.title })),
    };
  }
  const now = deps.now ?? Date.now;
  try {
    return await pollGitHub(deps, input, now);
  } catch (err) {
    if (AgentError.isInstance(err) && err.code === FailureType.GitHubRateLimited) {
      const waitMs = Number(err.details?.['retryAfterMs'] ?? 60_000);
      return {
        cursor: input.cursor,
        triggers: [],
        waitMs,
        note: `rate limited: waiting ${Math.ceil(waitMs / 1000)} s`,
      };
    }
    throw err;
  }
}

async function pollGitHub(deps: PollDeps, input: PollWatchInput, now: () => number): Promise<PollWatchOutput> {
  const port = await deps.github(input.repoPath);
  const triggers: WatchTrigger[] = [];
  const limits: RateLimitState[] = [];

  const labelled = await port.labelledIssues(input.label, input.cursor.issuesEtag);
  limits.push(labelled.rateLimit);
  for (const issue of labelled.items) triggers.push({ kind: 'label', issue: issue.number, title: issue.title });

  const comments = await port.commentsSince(input.cursor.since, input.cursor.commentsEtag);
  limits.push(comments.rateLimit);
  const seen = new Set(input.cursor.seenCommentIds);
  let since = input.cursor.since;
  const handled: number[] = [];
  for (const c of comments.items) {
    if (c.updatedAt > since) since = c.updatedAt;
    if (seen.has(c.id)) continue;
    handled.push(c.id);
    if (!mayTrigger(c) || c.issue <= 0) continue;
    const reply = { issue: c.issue, commentId: c.id, author: c.author };
    const usd = parseExtend(c.body);
    if (usd !== undefined) {
      triggers.push({ kind: 'extend', issue: c.issue, usd, reply });
      continue;
    }
    const asked = parseMention(c.body, input.mention);
    if (asked.kind === 'command')
      triggers.push({ kind: 'command', issue: c.issue, command: asked.command, text: asked.text, reply });
    else if (asked.kind === 'work')
      triggers.push({
        kind: 'mention',
        issue: c.issue,
        text: asked.text,
        reply,
        onPull: /\/pull\/\d+/.test(c.htmlUrl),
      });
    else if (!/\/pull\/\d+/.test(c.htmlUrl)) triggers.push({ kind: 'comment', issue: c.issue, text: c.body, reply });
  }

  for (const p of input.pulls) {
    const reviews = await port.reviews(p.pull);
    for (const r of reviews) {
      if (p.seen.includes(r.id) || r.state !== ReviewState.ChangesRequested) continue;
      if (!mayTrigger({ ...r, body: r.body })) continue;
      triggers.push({ kind: 'review', issue: p.issue, reviewId: r.id, text: r.body });
    }
    if (p.ci !== undefined && p.ci.stopped !== true)
      triggers.push(
        ...(await pollChecks(port, { pull: p.pull, issue: p.issue, ci: p.ci }, deps.harnessDir ?? HARNESS_DIR)),
      );
  }

  const cursor: WatchCursor = {
    ...(labelled.etag === undefined ? {} : { issuesEtag: labelled.etag }),
    ...(comments.etag === undefined ? {} : { commentsEtag: comments.etag }),
    since,
    seenCommentIds: [...input.cursor.seenCommentIds, ...handled].slice(-MAX_SEEN),
  };
  const wait = rateLimitWait(limits, now());
  return { cursor, triggers, ...wait };
}

/** The longest wait any answer asked for: retry-after, or the reset of a spent limit. */
export function rateLimitWait(limits: readonly RateLimitState[], now: number): { waitMs?: number; note?: string } {
  let waitMs = 0;
  for (const l of limits) {
    if (l.retryAfterMs !== undefined) waitMs = Math.max(waitMs, l.retryAfterMs);
    if (l.remaining !== undefined && l.remaining < RATE_LIMIT_FLOOR && l.resetAtMs !== undefined)
      waitMs = Math.max(waitMs, l.resetAtMs - now);
  }
  if (waitMs <= 0) return {};
  return { waitMs, note: `GitHub rate limit nearly spent: waiting ${Math.ceil(waitMs / 1000)} s` };
}
