/**
 * The GitHubPort over @octokit/rest. Only the core, pagination and endpoint plugins
 * are used: no retry or throttling plugin, because Temporal is the one retry owner
 * (a second retry layer would multiply attempts and hide rate limits from the
 * workflow). Each request has a timeout so a hung connection fails instead of pinning
 * an activity slot until its own timeout.
 */
import { Octokit } from '@octokit/rest';
import { toGitHubError } from './github-errors.js';
import type { GitHubPort, ListIssuesFilter } from './github-port.js';
import { labelNames, toComment, toIssue, toLabel, toPull, type RawIssue } from './github-wire.js';
import { DEFAULT_GITHUB_API_URL } from './github-settings.js';

export interface GitHubClientOptions {
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  readonly baseUrl?: string;
  readonly userAgent?: string;
  /** Page size for list calls (GitHub's maximum, 100, by default; tests use small pages). */
  readonly perPage?: number;
  readonly requestTimeoutMs?: number;
}

const DEFAULT_USER_AGENT = 'durable-issue-agent';
const DEFAULT_TIMEOUT_MS = 30_000;

export function createGitHubClient(options: GitHubClientOptions): GitHubPort {
  const { token, owner, repo } = options;
  const perPage = Math.min(100, Math.max(1, options.perPage ?? 100));
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const octokit = new Octokit({
    auth: token,
    baseUrl: (options.baseUrl ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, ''),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    // Every failure becomes an AgentError the caller reports, so the request log's own
    // error lines would only duplicate it; debug/info would print every request URL.
    // Warnings (endpoint deprecations) stay visible.
    log: { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} },
    request: { fetch: withTimeout(timeoutMs) },
  });
  const full = `${owner}/${repo}`;

  async function call<T>(operation: string, resource: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toGitHubError(error, { operation, resource, token });
    }
  }

  return {
    owner,
    repo,

    getRepo: () =>
      call(`GET /repos/${full}`, `repository ${full}`, async () => {
        const { data } = await octokit.rest.repos.get({ owner, repo });
        return {
          owner: data.owner.login,
          name: data.name,
          fullName: data.full_name,
          defaultBranch: data.default_branch,
          htmlUrl: data.html_url,
        };
      }),

    getIssue: (issue) =>
      call(`GET /repos/${full}/issues/${issue}`, `issue ${full}#${issue}`, async () =>
        toIssue((await octokit.rest.issues.get({ owner, repo, issue_number: issue })).data),
      ),

    listIssueComments: (issue) =>
      call(`GET /repos/${full}/issues/${issue}/comments`, `comments of issue ${full}#${issue}`, async () => {
        const comments = await octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issue,
          per_page: perPage,
        });
        return comments.map(toComment);
      }),

    listIssues: (filter: ListIssuesFilter) => {
      if (filter.query !== undefined && filter.query.trim() !== '') {
        const q = searchQuery(full, filter);
        return call('GET /search/issues', `issues of ${full} matching ${JSON.stringify(filter.query)}`, async () => {
          const items = await octokit.paginate(octokit.rest.search.issuesAndPullRequests, { q, per_page: perPage });
          return (items as unknown as RawIssue[]).map(toIssue).filter((i) => !i.isPullRequest);
        });
      }
      return call(`GET /repos/${full}/issues`, `issues of ${full}`, async () => {
        const items = await octokit.paginate(octokit.rest.issues.listForRepo, {
          owner,
          repo,
          state: filter.state,
          per_page: perPage,
          ...(filter.label === undefined ? {} : { labels: filter.label }),
        });
        return items.map(toIssue).filter((i) => !i.isPullRequest);
      });
    },

    closeIssue: (issue) =>
      call(`PATCH /repos/${full}/issues/${issue}`, `issue ${full}#${issue}`, async () =>
        toIssue(
          (
            await octokit.rest.issues.update({
              owner,
              repo,
              issue_number: issue,
              state: 'closed',
              state_reason: 'completed',
            })
          ).data,
        ),
      ),

    addLabels: (issue, labels) =>
      call(`POST /repos/${full}/issues/${issue}/labels`, `labels of issue ${full}#${issue}`, async () =>
        labelNames(
          (await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [...labels] })).data,
        ),
      ),

    removeLabel: (issue, label) =>
      call(
        `DELETE /repos/${full}/issues/${issue}/labels/${label}`,
        `label ${JSON.stringify(label)} on issue ${full}#${issue}`,
        async () =>
          labelNames((await octokit.rest.issues.removeLabel({ owner, repo, issue_number: issue, name: label })).data),
      ),

    createComment: (issue, body) =>
      call(`POST /repos/${full}/issues/${issue}/comments`, `comments of issue ${full}#${issue}`, async () =>
        toComment((await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body })).data),
      ),

    listPullRequests: (filter) =>
      call(`GET /repos/${full}/pulls`, `pull requests of ${full}`, async () => {
        const pulls = await octokit.paginate(octokit.rest.pulls.list, {
          owner,
          repo,
          state: filter.state,
          per_page: perPage,
          ...(filter.head === undefined
            ? {}
            : { head: filter.head.includes(':') ? filter.head : `${owner}:${filter.head}` }),
          ...(filter.base === undefined ? {} : { base: filter.base }),
        });
        return pulls.map(toPull);
      }),

    createPullRequest: (input) =>
      call(`POST /repos/${full}/pulls`, `pull request ${input.head} → ${input.base} in ${full}`, async () =>
        toPull(
          (
            await octokit.rest.pulls.create({
              owner,
              repo,
              title: input.title,
              head: input.head,
              base: input.base,
              body: input.body,
            })
          ).data,
        ),
      ),

    listLabels: () =>
      call(`GET /repos/${full}/labels`, `labels of ${full}`, async () => {
        const labels = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, {
          owner,
          repo,
          per_page: perPage,
        });
        return labels.map(toLabel);
      }),

    createLabel: (label) =>
      call(`POST /repos/${full}/labels`, `label ${JSON.stringify(label.name)} of ${full}`, async () =>
        toLabel((await octokit.rest.issues.createLabel({ owner, repo, ...label })).data),
      ),

    updateLabel: (label) =>
      call(`PATCH /repos/${full}/labels/${label.name}`, `label ${JSON.stringify(label.name)} of ${full}`, async () =>
        toLabel((await octokit.rest.issues.updateLabel({ owner, repo, ...label })).data),
      ),
  };
}

/** GitHub search syntax; quotes in the free text are dropped so it cannot escape its phrase. */
function searchQuery(full: string, filter: ListIssuesFilter): string {
  const parts = [`repo:${full}`, 'is:issue'];
  if (filter.state !== 'all') parts.push(`state:${filter.state}`);
  if (filter.label !== undefined) parts.push(`label:"${filter.label.replace(/"/g, '')}"`);
  parts.push((filter.query ?? '').trim());
  return parts.join(' ');
}

function withTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
}
