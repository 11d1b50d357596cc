/**
 * What the `github` tool talks to, built by the step activity: the run's issue source
 * (the local issue store, or GitHub through the worker's connection) and, for GitHub,
 * pull requests. The token lives in the connection inside the activity: the backend
 * hands the tool text, never a credential, and everything it returns is passed through
 * the worker's secret redactor first (an API error that echoed a header must not reach
 * the model, the transcript or a log).
 */
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import type { GitHubIssue, GitHubPort } from '../github/github-port.js';
import { issueTextWithComments, visibleText } from '../issues/github-issue-text.js';
import type { CommentOutcome, IssueSource, LabelChange } from '../issues/issue-source.js';

export interface PullRequestView {
  /** Served by the issues endpoint (GitHub's pull requests are issues too). */
  readonly pull: GitHubIssue;
  /** Body and comments, hidden text removed, comments quoted with their authors. */
  readonly text: string;
}

export interface GitHubToolBackend {
  readonly kind: IssueSourceKind;
  /** Labels the agent declares (`runner.integrations.github.labels`): the only ones set_labels may touch. */
  readonly declaredLabels: readonly string[];
  readIssue(issue: number): Promise<IssueSnapshot>;
  /** Throws AgentError (GITHUB_*) or a plain Error for a local issue store. */
  readPullRequest(pr: number): Promise<PullRequestView>;
  comment(issue: number, text: string, idempotencyKey: string): Promise<CommentOutcome>;
  relabel(issue: number, change: LabelChange): Promise<readonly string[]>;
  /** Removes the worker's secrets from text the tool is about to return. */
  readonly redact: (text: string) => string;
}

export interface GitHubToolBackendOptions {
  readonly kind: IssueSourceKind;
  readonly issues: IssueSource;
  /** The GitHub port of the run's repository (only for `github` runs). */
  readonly port?: () => Promise<GitHubPort>;
  readonly declaredLabels: readonly string[];
  readonly redact: (text: string) => string;
}

export function createGitHubToolBackend(options: GitHubToolBackendOptions): GitHubToolBackend {
  const { issues, port } = options;
  return {
    kind: options.kind,
    declaredLabels: options.declaredLabels,
    redact: options.redact,
    readIssue: (issue) => issues.read(issue),
    async readPullRequest(pr) {
      if (port === undefined) throw new Error('this run uses the local issue store: there are no pull requests');
      const github = await port();
      const pull = await github.getIssue(pr);
      if (!pull.isPullRequest) throw new Error(`#${pr} is an issue, not a pull request: use issue_view`);
      const comments = await github.listIssueComments(pr);
      return { pull, text: issueTextWithComments(visibleText(pull.body), comments) };
    },
    comment: (issue, text, idempotencyKey) => issues.comment(issue, text, { idempotencyKey }),
    relabel: (issue, change) => issues.relabel(issue, change),
  };
}
