/**
 * The IssueSource port over GitHub. Every write looks before it acts, so a retried
 * activity or a re-run boundary hook finds its earlier effect instead of repeating it:
 * close reads the state first, relabel only sends the difference, and a comment carries
 * its idempotency key as an invisible marker that is searched for before posting.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { GitHubIssue, GitHubPort } from '../github/github-port.js';
import { hasMarker, issueTextWithComments, visibleText, withMarker } from './github-issue-text.js';
import type { CloseOutcome, CommentOutcome, IssueListFilter, IssueSource, LabelChange } from './issue-source.js';

/** A port, or a way to get one (the connection is resolved on first use). */
export type GitHubPortProvider = GitHubPort | (() => Promise<GitHubPort>);

export function createGitHubIssueSource(provider: GitHubPortProvider): IssueSource {
  const port = async (): Promise<GitHubPort> => (typeof provider === 'function' ? provider() : provider);

  async function issueOf(github: GitHubPort, issue: number): Promise<GitHubIssue> {
    assertIssueNumber(issue);
    let found: GitHubIssue;
    try {
      found = await github.getIssue(issue);
    } catch (error) {
      if (
        AgentError.isInstance(error) &&
        error.code === FailureType.GitHubRequest &&
        error.details?.['status'] === 404
      ) {
        throw new AgentError(FailureType.IssueNotFound, `Issue #${issue} not found in ${github.owner}/${github.repo}`, {
          where: `${github.owner}/${github.repo}#${issue}`,
          expected: 'an existing issue visible to GITHUB_TOKEN',
        });
      }
      throw error;
    }
    if (found.isPullRequest) {
      throw new AgentError(
        FailureType.IssueInvalid,
        `#${issue} in ${github.owner}/${github.repo} is a pull request, not an issue`,
        {
          where: `${github.owner}/${github.repo}#${issue}`,
          expected: 'an issue number',
        },
      );
    }
    return found;
  }

  return {
    async read(issue) {
      const github = await port();
      const found = await issueOf(github, issue);
      const comments = await github.listIssueComments(issue);
      return { ...snapshot(found), body: issueTextWithComments(found.body, comments) };
    },

    /** Listed snapshots carry the body without comments (one request per page, not per issue). */
    async list(filter: IssueListFilter = {}) {
      const github = await port();
      const issues = await github.listIssues({
        state: filter.state ?? 'all',
        ...(filter.label === undefined ? {} : { label: filter.label }),
        ...(filter.query === undefined ? {} : { query: filter.query }),
      });
      return issues.map(snapshot).sort((a, b) => a.number - b.number);
    },

    async close(issue): Promise<CloseOutcome> {
      const github = await port();
      if ((await issueOf(github, issue)).state === 'closed') return 'already-closed';
      await github.closeIssue(issue);
      return 'closed';
    },

    async relabel(issue, change: LabelChange) {
      const github = await port();
      const current = (await issueOf(github, issue)).labels;
      const remove = new Set(change.remove ?? []);
      const toAdd = [...new Set(change.add ?? [])].filter((l) => !remove.has(l) && !current.includes(l));
      const toRemove = current.filter((l) => remove.has(l));
      let labels = [...current];
      if (toAdd.length > 0) labels = await github.addLabels(issue, toAdd);
      for (const label of toRemove) {
        try {
          labels = await github.removeLabel(issue, label);
        } catch (error) {
          // Removed by someone else since we looked: the wanted state is reached.
          if (!(AgentError.isInstance(error) && error.details?.['status'] === 404)) throw error;
          labels = labels.filter((l) => l !== label);
        }
      }
      return labels;
    },

    async comment(issue, text, options): Promise<CommentOutcome> {
      const key = options.idempotencyKey.replace(/[\r\n]+/g, ' ').trim();
      if (key === '') throw new AgentError(FailureType.ConfigInvalid, 'A comment needs a non-empty idempotencyKey');
      const github = await port();
      await issueOf(github, issue);
      const existing = await github.listIssueComments(issue);
      if (existing.some((c) => hasMarker(c.body, key))) return 'already-present';
      await github.createComment(issue, withMarker(text, key));
      return 'added';
    },
  };
}

function snapshot(issue: GitHubIssue): IssueSnapshot {
  return {
    number: issue.number,
    title: visibleText(issue.title),
    body: visibleText(issue.body),
    labels: [...issue.labels],
    state: issue.state,
  };
}

function assertIssueNumber(issue: number): void {
  if (!Number.isSafeInteger(issue) || issue <= 0) {
    throw new AgentError(FailureType.ConfigInvalid, `Issue number must be a positive integer, got ${issue}`, {
      where: '--issue',
      expected: 'a positive integer',
    });
  }
}
