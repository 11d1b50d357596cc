/**
 * Sample repositories for the bench's runs: each a copy of one createSampleRepo() result
 * (git init and commit once), all removed when the bench ends or is interrupted.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSampleRepo } from '../../src/dev/sample-repo.js';

export interface SampleRepo {
  readonly repoPath: string;
  readonly issue: number;
}

const repos: string[] = [];
let template: Promise<SampleRepo> | undefined;

/** A fresh sample repository: a copy of one createSampleRepo() result (git init + commit once). */
export async function newRepo(): Promise<SampleRepo> {
  template ??= createSampleRepo().then((r) => (repos.push(r.repoPath), r));
  const { repoPath: source, issue } = await template;
  const repoPath = await mkdtemp(join(tmpdir(), 'issue-agent-bench-repo-'));
  repos.push(repoPath);
  await cp(source, repoPath, { recursive: true });
  return { repoPath, issue };
}

/** Removes `dirs` and every repository made so far (errors ignored). */
export async function removeWithRepos(dirs: readonly string[]): Promise<unknown> {
  return Promise.all([...dirs, ...repos].map((d) => rm(d, { recursive: true, force: true }).catch(() => undefined)));
}
