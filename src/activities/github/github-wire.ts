/**
 * GitHub's REST JSON, as we read it: loose views of the few fields we use (extras
 * are tolerated) and their mapping to the port's types. PURE.
 */
import type { GitHubComment, GitHubIssue, GitHubLabel, GitHubPullRequest, IssueState } from './github-port.js';

/* Loose views of GitHub's JSON: we read a few fields and tolerate extras. */
export interface RawLabel {
  readonly name?: string | null;
  readonly color?: string | null;
  readonly description?: string | null;
}
export interface RawIssue {
  readonly number: number;
  readonly title: string;
  readonly body?: string | null;
  readonly state: string;
  readonly labels: ReadonlyArray<string | RawLabel>;
  readonly html_url: string;
  readonly pull_request?: unknown;
}
export interface RawComment {
  readonly id: number;
  readonly body?: string | null;
  readonly user?: { readonly login?: string } | null;
  readonly author_association?: string;
  readonly created_at: string;
  readonly html_url: string;
}
export interface RawPull {
  readonly number: number;
  readonly title: string;
  readonly body?: string | null;
  readonly state: string;
  readonly merged_at?: string | null;
  readonly html_url: string;
  readonly head: { readonly ref: string };
  readonly base: { readonly ref: string };
}

export function toState(state: string): IssueState {
  return state === 'closed' ? 'closed' : 'open';
}

export function labelNames(labels: ReadonlyArray<string | RawLabel>): string[] {
  return labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter((n) => n !== '');
}

export function toIssue(raw: RawIssue): GitHubIssue {
  return {
    number: raw.number,
    title: raw.title,
    body: raw.body ?? '',
    state: toState(raw.state),
    labels: labelNames(raw.labels),
    htmlUrl: raw.html_url,
    isPullRequest: raw.pull_request !== undefined && raw.pull_request !== null,
  };
}

export function toComment(raw: RawComment): GitHubComment {
  return {
    id: raw.id,
    body: raw.body ?? '',
    author: raw.user?.login ?? 'ghost',
    authorAssociation: raw.author_association ?? 'NONE',
    createdAt: raw.created_at,
    htmlUrl: raw.html_url,
  };
}

export function toPull(raw: RawPull): GitHubPullRequest {
  return {
    number: raw.number,
    title: raw.title,
    body: raw.body ?? '',
    state: toState(raw.state),
    merged: Boolean(raw.merged_at),
    htmlUrl: raw.html_url,
    head: raw.head.ref,
    base: raw.base.ref,
  };
}

export function toLabel(raw: RawLabel): GitHubLabel {
  return { name: raw.name ?? '', color: (raw.color ?? '').toLowerCase(), description: raw.description ?? '' };
}
