/**
 * The local issue store: one Markdown file per issue at `<repo>/.agent/issues/<n>.md`.
 * The embedded default issue source (demo, tests, offline use). Writes replace the file
 * atomically (temp file + rename) so a crash never leaves half an issue behind. A file
 * the user committed is never edited: its state lives under the git dir instead
 * (issue-state-location.ts), so the user's checkout is never left dirty by us.
 */
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { IssueSnapshot } from '../../contracts/activities.js';
import { appendComment, parseIssueFile, renderIssueFile, replaceComment, type IssueFile } from './issue-file.js';
import { issueLocator } from './issue-state-location.js';
import type {
  CloseOutcome,
  CommentOutcome,
  IssueListFilter,
  IssueSource,
  IssueSourceFactory,
  LabelChange,
} from './issue-source.js';
import { isMissing } from '../../definition/load/read-optional.js';

export const LOCAL_ISSUES_DIR = join('.agent', 'issues');

export function localIssuePath(repoPath: string, issue: number): string {
  return join(repoPath, LOCAL_ISSUES_DIR, `${issue}.md`);
}

/** The local store also edits a comment in place (the progress comment of a run). */
export interface LocalIssueStore extends IssueSource {
  upsertComment(issue: number, key: string, text: string): Promise<void>;
}

export function createLocalIssueStore(repoPath: string): LocalIssueStore {
  const dir = join(repoPath, LOCAL_ISSUES_DIR);

  async function load(issue: number): Promise<{ path: string; file: IssueFile }> {
    assertIssueNumber(issue);
    const locate = await issueLocator(repoPath, LOCAL_ISSUES_DIR, (n) => localIssuePath(repoPath, n));
    return loadFrom(issue, locate);
  }

  async function loadFrom(
    issue: number,
    locate: Awaited<ReturnType<typeof issueLocator>>,
  ): Promise<{ path: string; file: IssueFile }> {
    const path = localIssuePath(repoPath, issue);
    const where = await locate(issue);
    let text: string;
    try {
      text = await readFile(where.readPath, 'utf8');
    } catch (error) {
      if (isMissing(error)) {
        throw new AgentError(FailureType.IssueNotFound, `Issue #${issue} not found: no file ${path}`, {
          where: path,
          expected:
            'the issue as a Markdown file there, one per issue number: front matter between `---` lines (`title: ...`, `state: open`), then its body',
        });
      }
      throw error;
    }
    return { path: where.writePath, file: parseIssueFile(text, where.readPath) };
  }

  async function save(path: string, text: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, text, 'utf8');
    await rename(temp, path);
  }

  return {
    async read(issue) {
      const { file } = await load(issue);
      return toSnapshot(issue, file);
    },

    async list(filter: IssueListFilter = {}) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const numbers = names
        .map((name) => /^(\d+)\.md$/.exec(name)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      const locate = await issueLocator(repoPath, LOCAL_ISSUES_DIR, (n) => localIssuePath(repoPath, n));
      const snapshots: IssueSnapshot[] = [];
      for (const n of numbers) snapshots.push(toSnapshot(n, (await loadFrom(n, locate)).file));
      const query = filter.query?.trim().toLowerCase();
      return snapshots.filter(
        (s) =>
          (filter.state === undefined || s.state === filter.state) &&
          (filter.label === undefined || s.labels.includes(filter.label)) &&
          (!query || `${s.title}\n${s.body}`.toLowerCase().includes(query)),
      );
    },

    async close(issue): Promise<CloseOutcome> {
      const { path, file } = await load(issue);
      if (file.state === 'closed') return 'already-closed';
      file.frontMatter.set('state', 'closed');
      await save(path, renderIssueFile(file.frontMatter, file.rest));
      return 'closed';
    },

    async relabel(issue, change: LabelChange) {
      const { path, file } = await load(issue);
      const remove = new Set(change.remove ?? []);
      const labels = [
        ...new Set([...file.labels.filter((l) => !remove.has(l)), ...(change.add ?? []).filter((l) => !remove.has(l))]),
      ];
      if (labels.length !== file.labels.length || labels.some((l, i) => l !== file.labels[i])) {
        file.frontMatter.set('labels', labels);
        await save(path, renderIssueFile(file.frontMatter, file.rest));
      }
      return labels;
    },

    async comment(issue, text, options): Promise<CommentOutcome> {
      const key = options.idempotencyKey.replace(/[\r\n]+/g, ' ').trim();
      if (key === '') throw new AgentError(FailureType.ConfigInvalid, 'A comment needs a non-empty idempotencyKey');
      const { path, file } = await load(issue);
      if (file.commentKeys.includes(key)) return 'already-present';
      await save(path, renderIssueFile(file.frontMatter, appendComment(file.rest, key, text)));
      return 'added';
    },

    async upsertComment(issue, key, text) {
      const { path, file } = await load(issue);
      const rest = replaceComment(file.rest, key.replace(/[\r\n]+/g, ' ').trim(), text);
      if (rest !== file.rest) await save(path, renderIssueFile(file.frontMatter, rest));
    },
  };
}

/** Local store only: a worker without GitHub settings. createIssueSourceFactory (issue-source-factory.ts) serves both kinds. */
export const localIssueSourceFactory: IssueSourceFactory = (kind, repoPath) => {
  switch (kind) {
    case 'local':
      return createLocalIssueStore(repoPath);
    case 'github':
      throw new AgentError(FailureType.ConfigInvalid, 'The github issue source is not available in this worker', {
        where: '--issues',
        expected: 'local',
      });
  }
};

/** Creates an issue file (tests, demo seeding). Refuses to overwrite an existing issue. */
export async function writeLocalIssue(
  repoPath: string,
  issue: {
    readonly number: number;
    readonly title: string;
    readonly body: string;
    readonly labels?: readonly string[];
    readonly state?: 'open' | 'closed';
  },
): Promise<string> {
  assertIssueNumber(issue.number);
  const path = localIssuePath(repoPath, issue.number);
  await mkdir(join(repoPath, LOCAL_ISSUES_DIR), { recursive: true });
  const front = stringify({
    title: issue.title,
    state: issue.state ?? 'open',
    labels: [...(issue.labels ?? [])],
  }).replace(/\n+$/, '');
  await writeFile(path, `---\n${front}\n---\n\n${issue.body.trim()}\n`, { encoding: 'utf8', flag: 'wx' });
  return path;
}

function toSnapshot(issue: number, file: IssueFile): IssueSnapshot {
  return { number: issue, title: file.title, body: file.body, labels: [...file.labels], state: file.state };
}

function assertIssueNumber(issue: number): void {
  if (!Number.isSafeInteger(issue) || issue <= 0) {
    throw new AgentError(FailureType.ConfigInvalid, `Issue number must be a positive integer, got ${issue}`, {
      where: '--issue',
      expected: 'a positive integer',
    });
  }
}
