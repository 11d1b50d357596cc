/**
 * The GitHubWatchPort over @octokit/rest (core only, no retry or throttling plugin:
 * Temporal and the watcher's own waits are the retry owners). Lists are conditional:
 * the first page carries `If-None-Match`; a 304 is "nothing changed", read from the
 * error Octokit raises for it. Every answer reports the rate-limit headers it carried
 * so the watcher can slow down before GitHub refuses it.
 */
import { Octokit } from '@octokit/rest';
import { toGitHubError } from './github-errors.js';
import { createCheckRunsClient } from './octokit-check-runs.js';
import { DEFAULT_GITHUB_API_URL } from './github-settings.js';
import type {
  ConditionalPage,
  GitHubWatchPort,
  PullReview,
  RateLimitState,
  WatchComment,
} from './github-watch-port.js';
import { toComment, toIssue, type RawComment, type RawIssue } from './github-wire.js';

export interface WatchClientOptions {
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly baseUrl?: string;
  readonly perPage?: number;
  readonly requestTimeoutMs?: number;
}

type Headers = Readonly<Record<string, string | number | undefined>>;

interface RawWatchComment extends RawComment {
  readonly issue_url: string;
  readonly updated_at?: string;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
}

interface RawReview {
  readonly id: number;
  readonly state: string;
  readonly body?: string | null;
  readonly user?: { readonly login?: string; readonly type?: string } | null;
  readonly author_association?: string;
  readonly submitted_at?: string;
}

export function rateLimitOf(headers: Headers | undefined): RateLimitState {
  const read = (name: string): number | undefined => {
    const value = headers?.[name];
    const n = value === undefined ? NaN : Number(value);
    return Number.isFinite(n) ? n : undefined;
  };
  const remaining = read('x-ratelimit-remaining');
  const reset = read('x-ratelimit-reset');
  const retryAfter = read('retry-after');
  return {
    ...(remaining === undefined ? {} : { remaining }),
    ...(reset === undefined ? {} : { resetAtMs: reset * 1000 }),
    ...(retryAfter === undefined ? {} : { retryAfterMs: Math.max(0, retryAfter * 1000) }),
  };
}

export function createGitHubWatchClient(options: WatchClientOptions): GitHubWatchPort {
  const { token, owner, repo } = options;
  const perPage = Math.min(100, Math.max(1, options.perPage ?? 100));
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const octokit = new Octokit({
    auth: token,
    baseUrl: (options.baseUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, ''),
    userAgent: 'durable-issue-agent',
    log: { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} },
    request: {
      fetch: (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
        fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    },
  });
  const full = `${owner}/${repo}`;

  async function call<T>(operation: string, resource: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toGitHubError(error, { operation, resource, token });
    }
  }

  /** The first page conditionally; the further pages (rare for a poll) unconditionally. */
  async function conditional<R, T>(
    route: string,
    params: Record<string, unknown>,
    etag: string | undefined,
    map: (raw: R) => T | undefined,
  ): Promise<ConditionalPage<T>> {
    let response;
    try {
      response = await octokit.request(route, {
        ...params,
        per_page: perPage,
        headers: etag === undefined ? {} : { 'if-none-match': etag },
      });
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const headers = (error as { response?: { headers?: Headers } }).response?.headers;
      if (status === 304)
        return { notModified: true, items: [], ...(etag ? { etag } : {}), rateLimit: rateLimitOf(headers) };
      throw error;
    }
    const headers = response.headers as Headers;
    let raws = response.data as R[];
    if (typeof headers['link'] === 'string' && headers['link'].includes('rel="next"'))
      raws = (await octokit.paginate(route, { ...params, per_page: perPage })) as R[];
    const next = headers['etag'];
    return {
      notModified: false,
      items: raws.map(map).filter((x): x is T => x !== undefined),
      ...(next === undefined ? {} : { etag: String(next) }),
      rateLimit: rateLimitOf(headers),
    };
  }

  return {
    owner,
    repo,
    ...createCheckRunsClient(octokit, owner, repo, call),

    labelledIssues: (label, etag) =>
      call(`GET /repos/${full}/issues`, `issues of ${full} labelled ${JSON.stringify(label)}`, () =>
        conditional<RawIssue, ReturnType<typeof toIssue>>(
          'GET /repos/{owner}/{repo}/issues',
          { owner, repo, labels: label, state: 'open' },
          etag,
          (raw) => {
            const issue = toIssue(raw);
            return issue.isPullRequest ? undefined : issue;
          },
        ),
      ),

    commentsSince: (since, etag) =>
      call(`GET /repos/${full}/issues/comments`, `comments of ${full} since ${since}`, () =>
        conditional<RawWatchComment, WatchComment>(
          'GET /repos/{owner}/{repo}/issues/comments',
          { owner, repo, since, sort: 'updated', direction: 'asc' },
          etag,
          (raw) => ({
            ...toComment(raw),
            issue: Number(/\/issues\/(\d+)$/.exec(raw.issue_url)?.[1] ?? 0),
            authorType: raw.user?.type ?? 'User',
            updatedAt: raw.updated_at ?? raw.created_at,
          }),
        ),
      ),

    reviews: (pull) =>
      call(`GET /repos/${full}/pulls/${pull}/reviews`, `reviews of ${full}#${pull}`, async () => {
        const raws = (await octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
          owner,
          repo,
          pull_number: pull,
          per_page: perPage,
        })) as RawReview[];
        return raws.map((r): PullReview => ({
          id: r.id,
          state: r.state,
          body: r.body ?? '',
          author: r.user?.login ?? 'ghost',
          authorAssociation: r.author_association ?? 'NONE',
          authorType: r.user?.type ?? 'User',
          submittedAt: r.submitted_at ?? '',
        }));
      }),

    createComment: (issue, body) =>
      call(`POST /repos/${full}/issues/${issue}/comments`, `comments of ${full}#${issue}`, async () =>
        toComment((await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body })).data),
      ),

    updateComment: (commentId, body) =>
      call(`PATCH /repos/${full}/issues/comments/${commentId}`, `comment ${commentId} of ${full}`, async () =>
        toComment((await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body })).data),
      ),

    findComment: (issue, marker) =>
      call(`GET /repos/${full}/issues/${issue}/comments`, `comments of ${full}#${issue}`, async () => {
        const comments = await octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issue,
          per_page: perPage,
        });
        const found = comments.find((c) => (c.body ?? '').includes(marker));
        return found === undefined ? undefined : toComment(found);
      }),
  };
}
