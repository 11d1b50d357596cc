/**
 * Maps a failed GitHub request to an AgentError with a GITHUB_* code, so the activity
 * edge knows whether Temporal may retry it and after how long:
 * - 403/429 with `x-ratelimit-remaining: 0`, `retry-after` or a secondary-limit message
 *   → GITHUB_RATE_LIMITED, retryable, details.retryAfterMs;
 * - 401 → GITHUB_AUTH (check GITHUB_TOKEN); other 403 → GITHUB_AUTH (missing permission);
 * - other 4xx → GITHUB_REQUEST naming the resource (404: it does not exist or the token cannot see it);
 * - 5xx, timeouts and network errors → GITHUB_UNAVAILABLE, retryable.
 *
 * The original error is not attached as `cause`: its request copy holds headers and
 * URLs, and a cause is printed with the error. Every string is redacted.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { redactorFor } from '../edge/secret-redactor.js';

export interface RequestContext {
  /** `METHOD /path` as sent (no query string). */
  readonly operation: string;
  /** What was asked for, for humans: "issue acme/widgets#7". */
  readonly resource: string;
  readonly token: string;
  /** Clock for x-ratelimit-reset (tests). */
  readonly now?: () => number;
}

/** The fields of Octokit's RequestError we read; duck-typed so any copy of the class works. */
interface HttpErrorLike {
  readonly status: number;
  readonly message: string;
  readonly response?: {
    readonly headers?: Readonly<Record<string, string | number | undefined>>;
    readonly data?: unknown;
  };
}

const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

export function toGitHubError(error: unknown, context: RequestContext): AgentError {
  if (AgentError.isInstance(error)) return error;
  const redact = redactorFor(context.token);
  const where = redact(`GitHub ${context.operation}`);
  const http = asHttpError(error);
  if (!http || !http.response) {
    const why = error instanceof Error ? error.message : String(error);
    return new AgentError(
      FailureType.GitHubUnavailable,
      redact(`GitHub could not be reached for ${context.resource}: ${why}`),
      {
        where,
        retryable: true,
        details: { operation: where },
      },
    );
  }
  const status = http.status;
  const headers = http.response.headers ?? {};
  const header = (name: string): string | undefined => {
    const value = headers[name];
    return value === undefined ? undefined : String(value);
  };
  const apiMessage = redact(messageOf(http.response.data) ?? http.message);
  const requestId = header('x-github-request-id');
  const details = { operation: where, status, ...(requestId ? { requestId } : {}) };

  if (status === 429 || (status === 403 && isRateLimited(header, apiMessage))) {
    const retryAfterMs = retryAfter(header, context.now ?? Date.now);
    return new AgentError(
      FailureType.GitHubRateLimited,
      `GitHub rate limit reached while requesting ${context.resource}: ${apiMessage} (retry in ${Math.ceil(retryAfterMs / 1000)} s)`,
      {
        where,
        retryable: true,
        details: { ...details, retryAfterMs },
      },
    );
  }
  if (status === 401) {
    return new AgentError(
      FailureType.GitHubAuth,
      `GitHub rejected the credentials (401 ${apiMessage}): check GITHUB_TOKEN`,
      {
        where: 'GITHUB_TOKEN',
        expected: 'a valid, unexpired GitHub token',
        details,
      },
    );
  }
  if (status === 403) {
    return new AgentError(
      FailureType.GitHubAuth,
      `GitHub refused access to ${context.resource} (403 ${apiMessage}): the token in GITHUB_TOKEN lacks a permission`,
      {
        where,
        expected: 'a token with issues, pull-requests and contents write access to the repository',
        details,
      },
    );
  }
  if (status >= 500) {
    return new AgentError(
      FailureType.GitHubUnavailable,
      `GitHub failed on ${context.resource} (${status} ${apiMessage})`,
      { where, retryable: true, details },
    );
  }
  const problem = status === 404 ? 'not found (or not visible to the token)' : `rejected (${status})`;
  return new AgentError(FailureType.GitHubRequest, `GitHub ${context.resource} ${problem}: ${apiMessage}`, {
    where,
    details,
  });
}

function asHttpError(error: unknown): HttpErrorLike | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? (error as HttpErrorLike) : undefined;
}

function isRateLimited(header: (name: string) => string | undefined, message: string): boolean {
  return header('x-ratelimit-remaining') === '0' || header('retry-after') !== undefined || /rate limit/i.test(message);
}

/** retry-after (seconds) wins; else the primary limit's reset time; else a minute. */
function retryAfter(header: (name: string) => string | undefined, now: () => number): number {
  const seconds = Number(header('retry-after'));
  if (header('retry-after') !== undefined && Number.isFinite(seconds) && seconds >= 0)
    return Math.max(1000, seconds * 1000);
  const reset = Number(header('x-ratelimit-reset'));
  if (header('x-ratelimit-reset') !== undefined && Number.isFinite(reset)) return Math.max(1000, reset * 1000 - now());
  return DEFAULT_RATE_LIMIT_WAIT_MS;
}

/** GitHub's `message` plus the first validation error (422s explain themselves there). */
function messageOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim().slice(0, 300) || undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as { message?: unknown; errors?: unknown };
  const message = typeof record.message === 'string' ? record.message : undefined;
  const first = Array.isArray(record.errors)
    ? (record.errors[0] as { message?: unknown; code?: unknown } | undefined)
    : undefined;
  const extra =
    typeof first?.message === 'string' ? first.message : typeof first?.code === 'string' ? first.code : undefined;
  return [message, extra].filter(Boolean).join(': ') || undefined;
}
