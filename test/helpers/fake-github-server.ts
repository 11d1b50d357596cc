/**
 * A fake GitHub REST API for one repository, on 127.0.0.1 and a random port: just
 * the endpoints the Octokit adapter uses, with GitHub's JSON shapes, `Link` header
 * pagination (`per_page`, `page`), the `state` / `labels` / `head` / `base` filters,
 * token checking, counters of the effects, and fault injection:
 * - failNext(pattern, status, headers?) answers the next matching request with an error;
 * - holdNext(pattern) applies the next matching request but never answers it (until
 *   close), and resolves once it arrived: a client killed at that moment has caused
 *   the effect without learning about it.
 * Patterns match `METHOD /path` (no query string).
 * For the watcher: repository-wide comments (`since`), comment edits (PATCH), comments
 * and reviews on pull requests, ETags with `If-None-Match` → 304, and settable
 * rate-limit headers (setRateLimit).
 */
import { createFakeChecks, type FakeChecks } from './fake-github-checks.js';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: string;
  association: string;
  createdAt: string;
  updatedAt?: string;
  /** `User` (default) or `Bot`. */
  type?: string;
}

export interface FakeReview {
  id: number;
  state: string;
  body: string;
  user: string;
  association: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
  comments: FakeComment[];
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  head: string;
  base: string;
  comments: FakeComment[];
  reviews: FakeReview[];
  /** The head commit the API reports (setPullHead); zeros until set. */
  headSha?: string;
}

export interface FakeCounters {
  prsCreated: number;
  commentsCreated: number;
  issuesClosed: number;
  labelsAdded: number;
  labelsRemoved: number;
  requests: number;
  commentsEdited: number;
  notModified: number;
}

export interface FakeGitHubServer {
  /** API base URL (GITHUB_API_URL). */
  readonly url: string;
  readonly owner: string;
  readonly repo: string;
  readonly counters: FakeCounters;
  /** `METHOD /path?query` of every request, in order. */
  readonly log: string[];
  /** Authorization headers seen (to prove the token was sent, and only as a header). */
  readonly authHeaders: string[];
  addIssue(issue: {
    number?: number;
    title: string;
    body?: string;
    state?: 'open' | 'closed';
    labels?: string[];
    comments?: Array<{ body: string; user?: string; association?: string }>;
  }): FakeIssue;
  issue(number: number): FakeIssue | undefined;
  pulls(): readonly FakePull[];
  /** A comment written now on an issue or pull request (updated_at = now). */
  addComment(number: number, c: { body: string; user?: string; association?: string; type?: string }): FakeComment;
  addReview(pull: number, r: { state: string; body: string; user?: string; association?: string }): FakeReview;
  /** The pull request's head commit (what its checks run on), and merged/closed. */
  setPullHead(pull: number, sha: string, state?: 'open' | 'closed'): void;
  /** Check runs and GitHub Actions jobs (fake-github-checks.ts). */
  readonly checks: FakeChecks;
  setRateLimit(limit: { remaining: number; resetInSeconds: number }): void;
  failNext(pattern: RegExp, status: number, headers?: Record<string, string>, body?: unknown): void;
  holdNext(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

interface Fault {
  readonly pattern: RegExp;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

interface Hold {
  readonly pattern: RegExp;
  readonly arrived: () => void;
}

const USER = { login: 'issue-agent-bot', id: 1, type: 'User' };

export async function startFakeGitHubServer(
  options: { owner?: string; repo?: string; token?: string; defaultBranch?: string } = {},
): Promise<FakeGitHubServer> {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'widgets';
  const full = `${owner}/${repo}`;
  const issues = new Map<number, FakeIssue>();
  const pulls: FakePull[] = [];
  const checks = createFakeChecks();
  const counters: FakeCounters = {
    prsCreated: 0,
    commentsCreated: 0,
    issuesClosed: 0,
    labelsAdded: 0,
    labelsRemoved: 0,
    requests: 0,
    commentsEdited: 0,
    notModified: 0,
  };
  let rateLimit = { remaining: 4999, resetInSeconds: 3600 };
  let nextReviewId = 5000;
  let lastStamp = 0;
  /** Strictly increasing ISO times, so `since` reads are exact. */
  const stamp = (): string => {
    lastStamp = Math.max(lastStamp + 1, Date.now());
    return new Date(lastStamp).toISOString();
  };
  const allComments = (): Array<{ n: number; pull: boolean; c: FakeComment }> => [
    ...[...issues.values()].flatMap((i) => i.comments.map((c) => ({ n: i.number, pull: false, c }))),
    ...pulls.flatMap((p) => p.comments.map((c) => ({ n: p.number, pull: true, c }))),
  ];
  const log: string[] = [];
  const authHeaders: string[] = [];
  const faults: Fault[] = [];
  const holds: Hold[] = [];
  let nextNumber = 1;
  let nextCommentId = 1000;
  let base = '';

  const html = (path: string): string => `https://github.example/${full}/${path}`;
  const labelJson = (name: string) => ({
    id: name.length,
    node_id: `L_${name}`,
    url: `${base}/repos/${full}/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null,
  });
  const issueJson = (i: FakeIssue) => ({
    id: i.number * 10,
    node_id: `I_${i.number}`,
    url: `${base}/repos/${full}/issues/${i.number}`,
    html_url: html(`issues/${i.number}`),
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.state === 'closed' ? 'completed' : null,
    labels: i.labels.map(labelJson),
    user: USER,
    comments: i.comments.length,
    author_association: 'OWNER',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    closed_at: i.state === 'closed' ? '2024-01-02T00:00:00Z' : null,
  });
  const pullAsIssueJson = (p: FakePull) => ({
    ...issueJson({ number: p.number, title: p.title, body: p.body, state: p.state, labels: [], comments: [] }),
    pull_request: { url: `${base}/repos/${full}/pulls/${p.number}`, html_url: html(`pull/${p.number}`) },
  });
  const commentJson = (issue: number, c: FakeComment, pull = false) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${base}/repos/${full}/issues/comments/${c.id}`,
    html_url: html(`${pull ? 'pull' : 'issues'}/${issue}#issuecomment-${c.id}`),
    issue_url: `${base}/repos/${full}/issues/${issue}`,
    body: c.body,
    user: { ...USER, login: c.user, type: c.type ?? 'User' },
    author_association: c.association,
    created_at: c.createdAt,
    updated_at: c.updatedAt ?? c.createdAt,
  });
  const pullJson = (p: FakePull) => ({
    id: p.number * 10,
    node_id: `PR_${p.number}`,
    number: p.number,
    url: `${base}/repos/${full}/pulls/${p.number}`,
    html_url: html(`pull/${p.number}`),
    title: p.title,
    body: p.body,
    state: p.state,
    draft: false,
    merged_at: null,
    user: USER,
    head: { label: `${owner}:${p.head}`, ref: p.head, sha: p.headSha ?? '0'.repeat(40), repo: { full_name: full } },
    base: { label: `${owner}:${p.base}`, ref: p.base, sha: '0'.repeat(40), repo: { full_name: full } },
  });

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(rateLimit.remaining),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + rateLimit.resetInSeconds),
      'x-github-request-id': `FAKE:${counters.requests}`,
      ...headers,
    });
    res.end(text);
  }

  /** One page of `items` with GitHub's Link header. */
  function page<T>(url: URL, items: readonly T[]): { items: T[]; headers: Record<string, string> } {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30)));
    const current = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (n: number, rel: string): string => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(n));
      u.searchParams.set('per_page', String(perPage));
      return `<${base}${u.pathname}${u.search}>; rel="${rel}"`;
    };
    const links = [
      ...(current < last ? [link(current + 1, 'next'), link(last, 'last')] : []),
      ...(current > 1 ? [link(1, 'first'), link(current - 1, 'prev')] : []),
    ];
    return {
      items: items.slice((current - 1) * perPage, current * perPage),
      headers: links.length ? { link: links.join(', ') } : {},
    };
  }

  async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  /** Applies the request; returns the response to send. */
  async function handle(
    method: string,
    url: URL,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }> {
    const path = decodeURIComponent(url.pathname);
    const prefix = `/repos/${full}`;
    if (method === 'GET' && path === prefix) {
      return {
        status: 200,
        body: {
          id: 1,
          name: repo,
          full_name: full,
          owner: { login: owner, id: 2, type: 'Organization' },
          private: false,
          html_url: html(''),
          default_branch: options.defaultBranch ?? 'main',
        },
      };
    }
    if (method === 'GET' && path === '/search/issues') {
      const q = url.searchParams.get('q') ?? '';
      const terms = q.split(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/).filter(Boolean);
      const text: string[] = [];
      let matches = [...issues.values()];
      for (const term of terms) {
        const [key, ...rest] = term.split(':');
        const value = rest.join(':').replace(/^"|"$/g, '');
        if (rest.length > 0 && key === 'repo') matches = value === full ? matches : [];
        else if (rest.length > 0 && key === 'is') continue;
        else if (rest.length > 0 && key === 'state') matches = matches.filter((i) => i.state === value);
        else if (rest.length > 0 && key === 'label') matches = matches.filter((i) => i.labels.includes(value));
        else text.push(term.replace(/^"|"$/g, '').toLowerCase());
      }
      matches = matches
        .filter((i) => text.every((t) => `${i.title}\n${i.body}`.toLowerCase().includes(t)))
        .sort((a, b) => b.number - a.number);
      const p = page(url, matches);
      return {
        status: 200,
        body: { total_count: matches.length, incomplete_results: false, items: p.items.map(issueJson) },
        headers: p.headers,
      };
    }
    if (!path.startsWith(`${prefix}/`)) return { status: 404, body: { message: 'Not Found' } };
    const rest = path.slice(prefix.length);

    if (method === 'GET' && rest === '/issues') {
      const state = url.searchParams.get('state') ?? 'open';
      const wanted = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
      const all = [
        ...[...issues.values()].map((i) => ({
          n: i.number,
          state: i.state,
          labels: i.labels,
          json: () => issueJson(i),
        })),
        ...pulls.map((p) => ({ n: p.number, state: p.state, labels: [] as string[], json: () => pullAsIssueJson(p) })),
      ]
        .filter((x) => state === 'all' || x.state === state)
        .filter((x) => wanted.every((l) => x.labels.includes(l)))
        .sort((a, b) => b.n - a.n);
      const p = page(url, all);
      return { status: 200, body: p.items.map((x) => x.json()), headers: p.headers };
    }
    if (rest === '/pulls') {
      if (method === 'GET') {
        const state = url.searchParams.get('state') ?? 'open';
        const head = url.searchParams.get('head');
        const baseRef = url.searchParams.get('base');
        const found = pulls
          .filter((p) => state === 'all' || p.state === state)
          .filter((p) => head === null || `${owner}:${p.head}` === head)
          .filter((p) => baseRef === null || p.base === baseRef);
        const p = page(url, found);
        return { status: 200, body: p.items.map(pullJson), headers: p.headers };
      }
      if (method === 'POST') {
        const head = String(body['head'] ?? '');
        if (pulls.some((p) => p.state === 'open' && p.head === head)) {
          return {
            status: 422,
            body: {
              message: 'Validation Failed',
              errors: [
                {
                  resource: 'PullRequest',
                  code: 'custom',
                  message: `A pull request already exists for ${owner}:${head}.`,
                },
              ],
            },
          };
        }
        const pull: FakePull = {
          number: nextNumber++,
          title: String(body['title'] ?? ''),
          body: String(body['body'] ?? ''),
          state: 'open',
          head,
          base: String(body['base'] ?? ''),
          comments: [],
          reviews: [],
        };
        pulls.push(pull);
        counters.prsCreated++;
        return { status: 201, body: pullJson(pull) };
      }
    }
    const single = /^\/pulls\/(\d+)$/.exec(rest);
    if (single && method === 'GET') {
      const pr = pulls.find((p) => p.number === Number(single[1]));
      return pr ? { status: 200, body: pullJson(pr) } : { status: 404, body: { message: 'Not Found' } };
    }
    const checked = checks.handle(method, rest);
    if (checked !== undefined) return checked;
    if (method === 'GET' && rest === '/issues/comments') {
      const since = url.searchParams.get('since') ?? '';
      const found = allComments()
        .filter((x) => (x.c.updatedAt ?? x.c.createdAt) >= since)
        .sort((a, b) => (a.c.updatedAt ?? a.c.createdAt).localeCompare(b.c.updatedAt ?? b.c.createdAt));
      const p = page(url, found);
      return { status: 200, body: p.items.map((x) => commentJson(x.n, x.c, x.pull)), headers: p.headers };
    }
    const edit = /^\/issues\/comments\/(\d+)$/.exec(rest);
    if (edit && method === 'PATCH') {
      const found = allComments().find((x) => x.c.id === Number(edit[1]));
      if (!found) return { status: 404, body: { message: 'Not Found' } };
      found.c.body = String(body['body'] ?? '');
      found.c.updatedAt = stamp();
      counters.commentsEdited++;
      return { status: 200, body: commentJson(found.n, found.c, found.pull) };
    }
    const reviews = /^\/pulls\/(\d+)\/reviews$/.exec(rest);
    if (reviews && method === 'GET') {
      const pr = pulls.find((p) => p.number === Number(reviews[1]));
      if (!pr) return { status: 404, body: { message: 'Not Found' } };
      const p = page(url, pr.reviews);
      return {
        status: 200,
        body: p.items.map((r) => ({
          id: r.id,
          state: r.state,
          body: r.body,
          user: { ...USER, login: r.user },
          author_association: r.association,
          submitted_at: '2024-01-01T00:00:00Z',
        })),
        headers: p.headers,
      };
    }
    const m = /^\/issues\/(\d+)(\/comments|\/labels(?:\/(.+))?)?$/.exec(rest);
    const issue = m ? issues.get(Number(m[1])) : undefined;
    const pull = m ? pulls.find((p) => p.number === Number(m[1])) : undefined;
    if (!m || (!issue && !pull)) return { status: 404, body: { message: 'Not Found' } };
    if (!issue && pull && m[2] === '/comments') {
      if (method === 'GET') {
        const p = page(url, pull.comments);
        return { status: 200, body: p.items.map((c) => commentJson(pull.number, c, true)), headers: p.headers };
      }
      if (method === 'POST') {
        const at = stamp();
        const comment: FakeComment = {
          id: nextCommentId++,
          body: String(body['body'] ?? ''),
          user: USER.login,
          association: 'OWNER',
          createdAt: at,
          updatedAt: at,
        };
        pull.comments.push(comment);
        counters.commentsCreated++;
        return { status: 201, body: commentJson(pull.number, comment, true) };
      }
    }
    if (!issue)
      return method === 'GET' && !m[2] && pull
        ? { status: 200, body: pullAsIssueJson(pull) }
        : { status: 404, body: { message: 'Not Found' } };
    const n = issue.number;

    if (!m[2]) {
      if (method === 'GET') return { status: 200, body: issueJson(issue) };
      if (method === 'PATCH') {
        if (body['state'] === 'closed' && issue.state !== 'closed') counters.issuesClosed++;
        if (body['state'] === 'closed' || body['state'] === 'open') issue.state = body['state'];
        return { status: 200, body: issueJson(issue) };
      }
    }
    if (m[2] === '/comments') {
      if (method === 'GET') {
        const p = page(url, issue.comments);
        return { status: 200, body: p.items.map((c) => commentJson(n, c)), headers: p.headers };
      }
      if (method === 'POST') {
        const at = stamp();
        const comment: FakeComment = {
          id: nextCommentId++,
          body: String(body['body'] ?? ''),
          user: USER.login,
          association: 'OWNER',
          createdAt: at,
          updatedAt: at,
        };
        issue.comments.push(comment);
        counters.commentsCreated++;
        return { status: 201, body: commentJson(n, comment) };
      }
    }
    if (m[2]?.startsWith('/labels')) {
      const name = m[3];
      if (method === 'POST' && name === undefined) {
        const labels = Array.isArray(body['labels']) ? (body['labels'] as unknown[]).map(String) : [];
        for (const l of labels) {
          if (!issue.labels.includes(l)) {
            issue.labels.push(l);
            counters.labelsAdded++;
          }
        }
        return { status: 200, body: issue.labels.map(labelJson) };
      }
      if (method === 'DELETE' && name !== undefined) {
        if (!issue.labels.includes(name)) return { status: 404, body: { message: 'Label does not exist' } };
        issue.labels = issue.labels.filter((l) => l !== name);
        counters.labelsRemoved++;
        return { status: 200, body: issue.labels.map(labelJson) };
      }
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  const server = createServer((req, res) => {
    void (async () => {
      counters.requests++;
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const key = `${method} ${decodeURIComponent(url.pathname)}`;
      log.push(`${method} ${url.pathname}${url.search}`);
      const auth = req.headers.authorization ?? '';
      authHeaders.push(auth);
      const body = await readBody(req);
      if (options.token !== undefined && !/^(token|bearer) /i.test(auth))
        return send(res, 401, { message: 'Requires authentication' });
      if (options.token !== undefined && auth.replace(/^(token|bearer) /i, '') !== options.token)
        return send(res, 401, { message: 'Bad credentials' });
      const faultIndex = faults.findIndex((f) => f.pattern.test(key));
      if (faultIndex !== -1) {
        const [fault] = faults.splice(faultIndex, 1);
        return send(res, fault!.status, fault!.body, fault!.headers);
      }
      const result = await handle(method, url, body);
      const holdIndex = holds.findIndex((h) => h.pattern.test(key));
      if (holdIndex !== -1) {
        const [hold] = holds.splice(holdIndex, 1);
        hold!.arrived(); // effect applied, answer withheld: the socket dies with the client
        return;
      }
      if (method === 'GET' && result.status === 200) {
        const etag = `W/"${createHash('sha1').update(JSON.stringify(result.body)).digest('hex')}"`;
        if (req.headers['if-none-match'] === etag) {
          counters.notModified++;
          res.writeHead(304, {
            etag,
            'x-ratelimit-remaining': String(rateLimit.remaining),
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + rateLimit.resetInSeconds),
          });
          return res.end();
        }
        result.headers = { ...result.headers, etag };
      }
      send(res, result.status, result.body ?? { message: 'Not Found' }, result.headers);
    })().catch((error: unknown) => send(res, 500, { message: `fake server error: ${String(error)}` }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    owner,
    repo,
    counters,
    log,
    authHeaders,
    addIssue(input) {
      const number = input.number ?? nextNumber;
      nextNumber = Math.max(nextNumber, number + 1);
      const issue: FakeIssue = {
        number,
        title: input.title,
        body: input.body ?? '',
        state: input.state ?? 'open',
        labels: [...(input.labels ?? [])],
        comments: (input.comments ?? []).map((c, i) => ({
          id: nextCommentId++,
          body: c.body,
          user: c.user ?? 'octocat',
          association: c.association ?? 'NONE',
          createdAt: `2024-01-0${Math.min(9, i + 1)}T00:00:00Z`,
        })),
      };
      issues.set(number, issue);
      return issue;
    },
    issue: (number) => issues.get(number),
    pulls: () => pulls,
    addComment(number, c) {
      const target = issues.get(number) ?? pulls.find((p) => p.number === number);
      if (!target) throw new Error(`no issue or pull request #${number}`);
      const at = stamp();
      const comment: FakeComment = {
        id: nextCommentId++,
        body: c.body,
        user: c.user ?? 'octocat',
        association: c.association ?? 'NONE',
        createdAt: at,
        updatedAt: at,
        ...(c.type === undefined ? {} : { type: c.type }),
      };
      target.comments.push(comment);
      return comment;
    },
    addReview(pull, r) {
      const target = pulls.find((p) => p.number === pull);
      if (!target) throw new Error(`no pull request #${pull}`);
      const review: FakeReview = {
        id: nextReviewId++,
        state: r.state,
        body: r.body,
        user: r.user ?? 'reviewer',
        association: r.association ?? 'MEMBER',
      };
      target.reviews.push(review);
      return review;
    },
    setPullHead(pull, sha, state) {
      const target = pulls.find((p) => p.number === pull);
      if (!target) throw new Error(`no pull request #${pull}`);
      target.headSha = sha;
      if (state !== undefined) target.state = state;
    },
    checks,
    setRateLimit(limit) {
      rateLimit = limit;
    },
    failNext(pattern, status, headers = {}, body = { message: status >= 500 ? 'Server Error' : 'Error' }) {
      faults.push({ pattern, status, headers, body });
    },
    holdNext(pattern) {
      return new Promise<void>((resolve) => holds.push({ pattern, arrived: resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
