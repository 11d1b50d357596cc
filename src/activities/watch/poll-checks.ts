/**
 * Red CI on a delivered pull request (issue 40): one poll of its checks. The latest check
 * run of each name on the pull request's head is read; a failed one not acted on yet is
 * run again first (GitHub Actions re-runs the job; a flaky failure passes then and is
 * never worked); failing again, or when it cannot be run again, it becomes the guidance
 * of a continuation on the same branch, with a bounded excerpt of its log. A merged or
 * closed pull request stops being read. What the watcher does with these (the cap on
 * rounds, the reply) is watch-session.ts's decision.
 */
import type { CiWatch, WatchTrigger } from '../../contracts/watch.js';
import type { CiChecksPort } from '../github/github-watch-port.js';
import { ciExcerpt } from './ci-excerpt.js';
import { fill, readTemplate } from './comment-templates.js';

/** Conclusions that mean the check found a problem (cancelled, skipped and neutral do not). */
const FAILED: ReadonlySet<string> = new Set(['failure', 'timed_out']);

export interface PullChecks {
  readonly pull: number;
  readonly issue: number;
  readonly ci: CiWatch;
}

export async function pollChecks(
  port: CiChecksPort,
  pull: PullChecks,
  harnessDir: string,
): Promise<readonly WatchTrigger[]> {
  const head = await port.pullHead(pull.pull);
  if (!head.open) return [{ kind: 'pull-closed', issue: pull.issue }];
  const triggers: WatchTrigger[] = [];
  for (const run of await port.checkRuns(head.sha)) {
    if (run.status !== 'completed' || !FAILED.has(run.conclusion ?? '') || pull.ci.handled.includes(run.id)) continue;
    const key = `${run.name}@${head.sha}`;
    const again = pull.ci.reran.includes(key);
    if (!again && (await port.rerunJob(run.id))) {
      triggers.push({ kind: 'check-rerun', issue: pull.issue, checkRunId: run.id, key });
      continue;
    }
    const log = await port.jobLog(run.id);
    const excerpt = ciExcerpt(log ?? (run.output || `(no log: the check reported "${run.conclusion}")`));
    const text = fill(await readTemplate('ci-failed', harnessDir), {
      name: run.name,
      sha: head.sha.slice(0, 12),
      rerun: again ? ', and again when it was run a second time' : '',
      excerpt: excerpt.replace(/```/g, "'''"),
    });
    triggers.push({
      kind: 'check-failed',
      issue: pull.issue,
      pull: pull.pull,
      checkRunId: run.id,
      name: run.name,
      sha: head.sha,
      text: text.trim(),
    });
  }
  return triggers;
}
