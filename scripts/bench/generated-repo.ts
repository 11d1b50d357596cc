/**
 * Generated repositories of a given size for the `size` phase, and git's own floor on
 * them. A repository of N files (N/1000 directories of at most 1000 small files, a
 * README, a local issue) is made once with `git fast-import` (no file is hashed twice)
 * and checked out, then cached under `<tmpdir>/issue-agent-bench-cache/repo-<N>-v1`, so
 * a rerun of the bench costs nothing to set up; leftovers of an earlier run (worktrees,
 * branches, checkpoint refs and markers) are removed before each use.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localIssuePath, LOCAL_ISSUES_DIR } from '../../src/activities/issues/local-issue-store.js';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { median } from './durable.js';

export const GENERATED_ISSUE = 1;
const CACHE_ROOT = join(tmpdir(), 'issue-agent-bench-cache');
const VERSION = 'v1';
const PER_DIR = 1000;
const IDENTITY = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false'];

function gitSync(cwd: string, args: readonly string[], input?: string): string {
  const r = spawnSync('git', [...IDENTITY, '-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...(input === undefined ? {} : { input }),
    env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Streams N files into one commit through `git fast-import` (blobs inline, one pack). */
async function fastImport(repo: string, files: number): Promise<void> {
  const child = spawn('git', ['fast-import', '--quiet'], { cwd: repo, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import: ${stderr}`)))),
  );
  const message = `generated ${files} files\n`;
  const write = (text: string): boolean => child.stdin.write(text);
  write(`commit refs/heads/main\ncommitter Bench <bench@example.invalid> 1700000000 +0000\n`);
  write(`data ${Buffer.byteLength(message)}\n${message}`);
  const readme = '# Generated repository\n\nFor the bench.\n';
  write(`M 100644 inline README.md\ndata ${Buffer.byteLength(readme)}\n${readme}\n`);
  for (let i = 0; i < files - 1; i += 1) {
    const body = `export const value${i} = ${i};\n`;
    const ok = write(`M 100644 inline src/d${Math.floor(i / PER_DIR)}/f${i}.ts\ndata ${body.length}\n${body}\n`);
    if (!ok) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  child.stdin.end();
  await done;
}

async function generate(dir: string, files: number): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  gitSync(dir, ['init', '-q', '-b', 'main']);
  await fastImport(dir, files);
  gitSync(dir, ['reset', '-q', '--hard', 'main']);
  await appendFile(join(dir, '.git', 'info', 'exclude'), '\n.agent/\n');
  await writeFile(join(dir, '.ready'), `${files}\n`);
}

/** What an earlier bench run left in the cached repository: worktrees, branches, refs, markers. */
function clean(dir: string): void {
  spawnSync('rm', ['-rf', join(dir, '.git', 'agent')]);
  gitSync(dir, ['worktree', 'prune']);
  const refs = gitSync(dir, ['for-each-ref', '--format=%(refname)', 'refs/agent', 'refs/heads/agent']);
  const input = refs
    .split('\n')
    .filter((r) => r !== '')
    .map((r) => `delete ${r}\n`)
    .join('');
  if (input !== '') gitSync(dir, ['update-ref', '--stdin'], input);
  // Exit 1 when there is none: not an error here.
  const keys = spawnSync('git', ['config', '--name-only', '--get-regexp', '^branch\\.agent/'], {
    cwd: dir,
    encoding: 'utf8',
  });
  for (const key of (keys.stdout ?? '').split('\n')) {
    if (key !== '') spawnSync('git', ['config', '--unset-all', key], { cwd: dir });
  }
  gitSync(dir, ['reset', '-q', '--hard', 'main']);
}

/** The issue, open again (a delivered run closes it in the local store). */
async function writeIssue(dir: string): Promise<void> {
  await rm(join(dir, LOCAL_ISSUES_DIR), { recursive: true, force: true });
  await mkdir(join(dir, LOCAL_ISSUES_DIR), { recursive: true });
  await writeFile(localIssuePath(dir, GENERATED_ISSUE), await readFile(join(DEMO_DIR, 'issue-1.md'), 'utf8'));
}

/** The cached repository of `files` files (made on first use), cleaned for a new run. */
export async function generatedRepo(files: number): Promise<{ repoPath: string; issue: number; made: boolean }> {
  const dir = join(CACHE_ROOT, `repo-${files}-${VERSION}`);
  const made = !existsSync(join(dir, '.ready'));
  if (made) await generate(dir, files);
  clean(dir);
  await writeIssue(dir);
  return { repoPath: dir, issue: GENERATED_ISSUE, made };
}

function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export interface GitFloor {
  /** `git status` + `git add -A` + `git write-tree` after a one-file change (median ms). */
  readonly stepMs: number;
  readonly statusMs: number;
  /** `git worktree add` of a new branch (median ms). */
  readonly worktreeAddMs: number;
}

/** Git's own floor on the repository, measured now (the main checkout is left as it was). */
export async function gitFloor(repoPath: string, reps: number, worktreeReps: number): Promise<GitFloor> {
  const steps: number[] = [];
  const statuses: number[] = [];
  const readme = join(repoPath, 'README.md');
  const original = await readFile(readme, 'utf8');
  for (let i = 0; i < reps; i += 1) {
    await writeFile(readme, `${original}change ${i}\n`);
    const status = timed(() => gitSync(repoPath, ['status', '--porcelain']));
    const rest = timed(() => {
      gitSync(repoPath, ['add', '-A']);
      gitSync(repoPath, ['write-tree']);
    });
    statuses.push(status);
    steps.push(status + rest);
    gitSync(repoPath, ['reset', '-q']);
    await writeFile(readme, original);
  }
  const adds: number[] = [];
  const parent = await mkdtemp(join(tmpdir(), 'issue-agent-bench-wt-'));
  try {
    for (let i = 0; i < worktreeReps; i += 1) {
      const path = join(parent, `wt-${i}`);
      adds.push(timed(() => gitSync(repoPath, ['worktree', 'add', '-q', '-b', `bench-floor-${i}`, path, 'main'])));
      gitSync(repoPath, ['worktree', 'remove', '--force', path]);
      gitSync(repoPath, ['branch', '-q', '-D', `bench-floor-${i}`]);
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
  return { stepMs: median(steps), statusMs: median(statuses), worktreeAddMs: median(adds) };
}
