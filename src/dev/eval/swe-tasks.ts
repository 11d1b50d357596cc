/**
 * SWE-bench tasks as eval tasks: each `repo` found as a local clone (the machine may have
 * no network to clone from), the problem statement as the issue (its first line the
 * title), the base commit as the task's commit. The hidden checks are the task's own
 * (swe-checks.ts), not shell commands.
 *
 * A clone is found, in order: in `--repo-map` (`owner/name=PATH`), in `--repos DIR` as
 * `owner__name`, `owner+name`, `owner/name` or `name`, then at the task's `repo_path`
 * (written by `eval --mine`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { SweTask } from './swe-jsonl.js';
import type { EvalTask } from './task-file.js';

export interface RepoLookup {
  readonly reposDir?: string;
  readonly repoMap?: Readonly<Record<string, string>>;
}

/** `owner/name=PATH,owner/name=PATH` → a map; a malformed entry is named. */
export function parseRepoMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    if (at <= 0 || at === entry.length - 1)
      throw new AgentError(FailureType.ConfigInvalid, `--repo-map entry "${entry}" is not NAME=PATH`, {
        where: '--repo-map',
        expected: 'owner/name=/path/to/clone[,owner/name=/path]',
      });
    out[entry.slice(0, at).trim()] = resolve(entry.slice(at + 1).trim());
  }
  return out;
}

function cloneOf(task: SweTask, lookup: RepoLookup): string | undefined {
  const mapped = lookup.repoMap?.[task.repo];
  if (mapped !== undefined) return mapped;
  if (lookup.reposDir !== undefined) {
    const [owner = '', name = task.repo] = task.repo.includes('/') ? task.repo.split('/') : ['', task.repo];
    const names = [`${owner}__${name}`, `${owner}+${name}`, `${owner}/${name}`, name].filter((n) => !n.startsWith('_'));
    const found = names
      .map((n) => join(lookup.reposDir!, n))
      .find((p) => existsSync(join(p, '.git')) || existsSync(join(p, 'HEAD')));
    if (found !== undefined) return found;
  }
  return task.repoPath !== undefined && existsSync(task.repoPath) ? task.repoPath : undefined;
}

const ID = /[^a-z0-9._-]+/g;

export function sweEvalTask(task: SweTask, lookup: RepoLookup, at: string): EvalTask {
  const clone = cloneOf(task, lookup);
  if (clone === undefined)
    throw new AgentError(FailureType.ConfigInvalid, `no local clone of ${task.repo} for task ${task.instanceId}`, {
      where: `${at}#/repo`,
      expected: `--repos DIR holding ${task.repo.replace('/', '__')} (or ${task.repo.split('/').pop() ?? task.repo}), or --repo-map ${task.repo}=PATH`,
    });
  const [first = '', ...rest] = task.problemStatement.trim().split('\n');
  const title = first.trim().slice(0, 200) || task.instanceId;
  const body = rest.join('\n').trim() || task.problemStatement.trim();
  return {
    id: task.instanceId
      .toLowerCase()
      .replace(ID, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 50),
    repo: clone,
    commit: task.baseCommit,
    issue: { title, body },
    checks: [],
    hiddenFiles: {},
    swe: task,
  };
}
