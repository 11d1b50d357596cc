/**
 * Check runs for the GitHub REST stand-in: the latest run of each name on a commit, a
 * GitHub Actions job re-run (a new check run of the same name, concluding as the test
 * said it would on a re-run: a flaky check passes then) and the job's log.
 */
export interface FakeCheckRun {
  readonly id: number;
  readonly sha: string;
  readonly name: string;
  readonly conclusion: string;
  readonly log: string;
  /** What a re-run of it concludes (default: the same). */
  readonly onRerun?: string;
}

export interface FakeChecks {
  /** A completed check run on `sha` (the pull request's head, see setPullHead). */
  add(sha: string, run: { name: string; conclusion: string; log?: string; onRerun?: string }): FakeCheckRun;
  /** Ids of the jobs re-run, in order. */
  readonly reruns: number[];
  /** Whether the token may re-run jobs (a 403 otherwise). */
  allowRerun: boolean;
}

type Response = { status: number; body?: unknown };

export function createFakeChecks(): FakeChecks & { handle(method: string, rest: string): Response | undefined } {
  const runs: FakeCheckRun[] = [];
  let nextId = 9000;
  const json = (r: FakeCheckRun) => ({
    id: r.id,
    name: r.name,
    head_sha: r.sha,
    status: 'completed',
    conclusion: r.conclusion,
    output: { title: `${r.name}: ${r.conclusion}`, summary: '', text: null },
  });
  const checks = {
    reruns: [] as number[],
    allowRerun: true,
    add(sha: string, run: { name: string; conclusion: string; log?: string; onRerun?: string }): FakeCheckRun {
      const added: FakeCheckRun = { id: nextId++, sha, log: run.log ?? '', ...run };
      runs.push(added);
      return added;
    },
    handle(method: string, rest: string): Response | undefined {
      const list = /^\/commits\/([^/]+)\/check-runs$/.exec(rest);
      if (list && method === 'GET') {
        const latest = new Map<string, FakeCheckRun>();
        for (const r of runs) if (r.sha === list[1]) latest.set(r.name, r);
        return { status: 200, body: { total_count: latest.size, check_runs: [...latest.values()].map(json) } };
      }
      const job = /^\/actions\/jobs\/(\d+)\/(rerun|logs)$/.exec(rest);
      const found = job ? runs.find((r) => r.id === Number(job[1])) : undefined;
      if (!job) return undefined;
      if (!found) return { status: 404, body: { message: 'Not Found' } };
      if (job[2] === 'logs' && method === 'GET') return { status: 200, body: found.log };
      if (job[2] === 'rerun' && method === 'POST') {
        if (!checks.allowRerun) return { status: 403, body: { message: 'Resource not accessible by integration' } };
        checks.reruns.push(found.id);
        const conclusion = found.onRerun ?? found.conclusion;
        checks.add(found.sha, { name: found.name, conclusion, log: found.log });
        return { status: 201, body: {} };
      }
      return undefined;
    },
  };
  return checks;
}
