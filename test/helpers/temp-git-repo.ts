/**
 * A real git repository in a temp dir for tests: `main` branch, local identity, no
 * signing, one initial commit holding `files`.
 */
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

export interface TempGitRepo {
  readonly dir: string;
  /** Runs git in the repo; rejects on a non-zero exit; resolves to trimmed stdout. */
  git(...args: string[]): Promise<string>;
  /** Writes files (creating directories) relative to the repo. */
  write(files: Record<string, string>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeTempGitRepo(options: { files?: Record<string, string> } = {}): Promise<TempGitRepo> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'agent-repo-')));
  const git = async (...args: string[]): Promise<string> => {
    const r = await execa('git', args, { cwd: dir, env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } });
    return r.stdout.trim();
  };
  const write = async (files: Record<string, string>): Promise<void> => {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text, 'utf8');
    }
  };
  await git('init', '--quiet', '--initial-branch=main');
  await git('config', 'user.name', 'Test User');
  await git('config', 'user.email', 'test@example.com');
  await git('config', 'commit.gpgsign', 'false');
  await git('config', 'core.hooksPath', '/dev/null');
  await write({ 'README.md': '# temp repo\n', ...(options.files ?? {}) });
  await git('add', '-A');
  await git('commit', '--quiet', '-m', 'initial commit');
  return { dir, git, write, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
