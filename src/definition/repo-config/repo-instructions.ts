/**
 * Instructions a repository already gives coding agents (`AGENTS.md`, `CLAUDE.md` at
 * its root), handed to the system prompt as `{uv-repo_instructions}`. Capped so a huge
 * file cannot crowd out the conversation; empty when there are none.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
export const MAX_INSTRUCTIONS_CHARS = 20_000;

export interface RepoInstructions {
  readonly text: string;
  readonly files: readonly string[];
}

export async function readRepoInstructions(repoPath: string): Promise<RepoInstructions> {
  const parts: string[] = [];
  const files: string[] = [];
  for (const file of INSTRUCTION_FILES) {
    const text = await readFile(join(repoPath, file), 'utf8').catch(() => undefined);
    if (text === undefined || text.trim() === '') continue;
    files.push(file);
    parts.push(`<${file}>\n${text.trim()}\n</${file}>`);
  }
  const joined = parts.join('\n\n');
  return {
    text: joined.length > MAX_INSTRUCTIONS_CHARS ? `${joined.slice(0, MAX_INSTRUCTIONS_CHARS)}\n[truncated]` : joined,
    files,
  };
}
