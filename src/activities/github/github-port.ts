/**
 * The GitHub port: the few REST operations the issue source and the boundary hook
 * need, in our own small shapes (not Octokit's generated types), so callers and fakes
 * do not depend on the client library. One implementation: octokit-github-client.ts.
 *
 * Every method throws AgentError with a GITHUB_* code (see github-errors.ts); none
 * retries on its own: Temporal owns retries, so there is exactly one retry policy.
 */

export const IssueState = { Open: 'open', Closed: 'closed' } as const;
export type IssueState = (typeof IssueState)[keyof typeof IssueState];

export type StateFilter = IssueState | 'all';

export interface GitHubIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly state: IssueState;
  readonly labels: readonly string[];
  readonly htmlUrl: string;
  /** GitHub serves pull requests through the issues endpoints too. */
  readonly isPullRequest: boolean;
}

export interface GitHubComment {
  readonly id: number;
  readonly body: string;
  readonly author: string;
  /** OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE…: the provenance of the text. */
  readonly authorAssociation: string;
  readonly createdAt: string;
  readonly htmlUrl: string;
}

export interface GitHubPullRequest {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly state: IssueState;
  readonly merged: boolean;
  readonly htmlUrl: string;
  /** Branch name of the head (without the `owner:` prefix). */
  readonly head: string;
  readonly base: string;
}

export interface GitHubRepo {
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  readonly defaultBranch: string;
  readonly htmlUrl: string;
}

export interface ListIssuesFilter {
  readonly label?: string;
  /** Free text for GitHub's issue search (`repo:` and `is:issue` are added). */
  readonly query?: string;
  readonly state: StateFilter;
}

export interface ListPullRequestsFilter {
  /** Branch name; qualified with the repository owner (`owner:branch`) as GitHub requires. */
  readonly head?: string;
  readonly base?: string;
  readonly state: StateFilter;
}

export interface CreatePullRequestInput {
  readonly title: string;
  readonly head: string;
  readonly base: string;
  readonly body: string;
}

/** A repository label (colour: six hex digits, no '#'). */
export interface GitHubLabel {
  readonly name: string;
  readonly color: string;
  readonly description: string;
}

export interface GitHubPort {
  readonly owner: string;
  readonly repo: string;
  getRepo(): Promise<GitHubRepo>;
  getIssue(issue: number): Promise<GitHubIssue>;
  /** All comments, oldest first, every page. */
  listIssueComments(issue: number): Promise<GitHubComment[]>;
  /** Issues only (pull requests are left out), every page. */
  listIssues(filter: ListIssuesFilter): Promise<GitHubIssue[]>;
  closeIssue(issue: number): Promise<GitHubIssue>;
  /** Returns the issue's labels after the change. */
  addLabels(issue: number, labels: readonly string[]): Promise<string[]>;
  /** Returns the issue's labels after the change; a label the issue lacks is a GITHUB_REQUEST 404. */
  removeLabel(issue: number, label: string): Promise<string[]>;
  createComment(issue: number, body: string): Promise<GitHubComment>;
  listPullRequests(filter: ListPullRequestsFilter): Promise<GitHubPullRequest[]>;
  createPullRequest(input: CreatePullRequestInput): Promise<GitHubPullRequest>;
  /** The repository's labels, every page. */
  listLabels(): Promise<GitHubLabel[]>;
  /** A label that already exists is a GITHUB_REQUEST 422. */
  createLabel(label: GitHubLabel): Promise<GitHubLabel>;
  /** Sets the colour and description of the label with this name. */
  updateLabel(label: GitHubLabel): Promise<GitHubLabel>;
}
