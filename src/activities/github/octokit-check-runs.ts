/**
 * The CiChecksPort over @octokit/rest: a pull request's head, the latest check run of each
 * name on a commit, re-running a GitHub Actions job (a check run's id is its job's id) and
 * reading its log. Refusals that only mean "not possible here" (a third-party check, a
 * token without `actions: write`, a log gone) are answers, not errors: the watcher then
 * works the failure without a re-run, or with the check's own output instead of a log.
 */
import type { Octokit } from '@octokit/rest';
import type { CheckRun, CiChecksPort } from './github-watch-port.js';

type Call = <T>(operation: string, resource: string, run: () => Promise<T>) => Promise<T>;

interface RawCheckRun {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly conclusion?: string | null;
  readonly output?: { readonly title?: string | null; readonly summary?: string | null; readonly text?: string | null };
}

const refused = (error: unknown): boolean =>
  [403, 404, 410, 422].includes(Number((error as { status?: unknown }).status));

export function createCheckRunsClient(octokit: Octokit, owner: string, repo: string, call: Call): CiChecksPort {
  const full = `${owner}/${repo}`;
  return {
    pullHead: (pull) =>
      call(`GET /repos/${full}/pulls/${pull}`, `pull request ${full}#${pull}`, async () => {
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pull });
        return { sha: data.head.sha, open: data.state === 'open' };
      }),

    checkRuns: (sha) =>
      call(`GET /repos/${full}/commits/${sha}/check-runs`, `check runs of ${full}@${sha}`, async () => {
        const { data } = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
          owner,
          repo,
          ref: sha,
          filter: 'latest',
          per_page: 100,
        });
        return (data.check_runs as RawCheckRun[]).map((r): CheckRun => ({
          id: r.id,
          name: r.name,
          status: r.status,
          ...(r.conclusion ? { conclusion: r.conclusion } : {}),
          output: [r.output?.title, r.output?.summary, r.output?.text].filter((x) => x).join('\n\n'),
        }));
      }),

    rerunJob: async (id) => {
      try {
        await octokit.request('POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun', { owner, repo, job_id: id });
        return true;
      } catch (error) {
        if (refused(error)) return false;
        return call(`POST /repos/${full}/actions/jobs/${id}/rerun`, `job ${id} of ${full}`, () =>
          Promise.reject(error),
        );
      }
    },

    jobLog: async (id) => {
      try {
        const { data } = await octokit.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', {
          owner,
          repo,
          job_id: id,
        });
        return typeof data === 'string'
          ? data
          : data instanceof ArrayBuffer
            ? new TextDecoder().decode(data)
            : String(data);
      } catch (error) {
        if (refused(error)) return undefined;
        return call(`GET /repos/${full}/actions/jobs/${id}/logs`, `log of job ${id} of ${full}`, () =>
          Promise.reject(error),
        );
      }
    },
  };
}
