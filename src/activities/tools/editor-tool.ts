/**
 * The text editor tool (Claude-defined `text_editor_20250728`, name
 * `str_replace_based_edit_tool`): view / create / str_replace / insert, confined to
 * the worktree. `insert` accepts the text as `insert_text` (current docs) or
 * `new_str` (older docs and wrappers). There is no `undo_edit` in this version.
 * Every message names the file as the agent gave it: a file-system error becomes
 * `<path>: cannot <command> (<code>)`, not Node's message with the resolved host path.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { truncateToolOutput } from './output-truncation.js';
import { resolveInWorktree } from './path-guard.js';
import { installedWriteRefusal } from './installed-guard.js';
import type { ToolContext, ToolResult } from './tool-types.js';

export const EditorCommand = { View: 'view', Create: 'create', StrReplace: 'str_replace', Insert: 'insert' } as const;
export type EditorCommand = (typeof EditorCommand)[keyof typeof EditorCommand];

const WRITE_COMMANDS: readonly string[] = [EditorCommand.Create, EditorCommand.StrReplace, EditorCommand.Insert];

const fail = (content: string): ToolResult => ({ content: `Error: ${content}`, isError: true });
const ok = (content: string): ToolResult => ({ content, isError: false });

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

async function listDir(absolute: string, display: string): Promise<string> {
  // Two levels, hidden entries skipped, as the tool's documentation describes.
  const lines: string[] = [];
  async function walk(dir: string, depth: number, prefix: string): Promise<void> {
    const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const rel = path.join(prefix, entry.name);
      lines.push(entry.isDirectory() ? `${rel}/` : rel);
      if (entry.isDirectory() && depth < 2 && entry.name !== 'node_modules')
        await walk(path.join(dir, entry.name), depth + 1, rel);
    }
  }
  await walk(absolute, 1, '');
  return `Files and directories up to 2 levels deep in ${display}:\n${lines.join('\n')}`;
}

function numbered(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => `${firstLine + i}: ${line}`).join('\n');
}

export async function runEditor(
  input: Record<string, unknown>,
  ctx: ToolContext,
  label = 'editor-output',
): Promise<ToolResult> {
  const command = str(input, 'command');
  const requested = str(input, 'path');
  if (command === undefined || !(Object.values(EditorCommand) as string[]).includes(command)) {
    return fail(`unknown command ${JSON.stringify(input['command'])}; use view, create, str_replace or insert`);
  }
  if (requested === undefined || requested === '') return fail('"path" is required');
  if (ctx.readOnly && WRITE_COMMANDS.includes(command)) {
    return fail(
      `this step is read-only: ${command} is not allowed. Inspect with view and report findings in your answer.`,
    );
  }
  const checked = await resolveInWorktree(ctx.worktreePath, requested);
  if (!checked.ok) return fail(checked.reason);
  if (WRITE_COMMANDS.includes(command)) {
    const refused = await installedWriteRefusal(ctx.worktreePath, checked.absolute, requested);
    if (refused !== undefined) return fail(refused);
  }
  // Recorded before the write: a write that fails half-way still may have changed the file.
  if (WRITE_COMMANDS.includes(command)) ctx.changes?.add(path.relative(ctx.worktreePath, checked.absolute));
  try {
    return await apply(command as EditorCommand, input, checked.absolute, requested, ctx, label);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return fail(`${requested}: cannot ${command} (${code})`);
    throw error;
  }
}

async function apply(
  command: EditorCommand,
  input: Record<string, unknown>,
  file: string,
  requested: string,
  ctx: ToolContext,
  label: string,
): Promise<ToolResult> {
  const info = await stat(file).catch(() => undefined);
  switch (command) {
    case 'view': {
      if (info === undefined) return fail(`${requested} does not exist`);
      if (info.isDirectory()) return ok(await listDir(file, requested));
      const lines = (await readFile(file, 'utf8')).split('\n');
      const range = input['view_range'];
      let start = 1;
      let end = lines.length;
      if (Array.isArray(range) && range.length === 2 && range.every((n) => Number.isInteger(n))) {
        start = Math.max(1, range[0] as number);
        end = (range[1] as number) === -1 ? lines.length : Math.min(lines.length, range[1] as number);
        if (start > end)
          return fail(`view_range ${JSON.stringify(range)} is empty; the file has ${lines.length} lines`);
      }
      const view = await truncateToolOutput(
        numbered(lines.slice(start - 1, end), start),
        ctx.limits.maxOutputChars,
        ctx.store,
        label,
      );
      return ok(view.text);
    }
    case 'create': {
      const text = str(input, 'file_text');
      if (text === undefined) return fail('"file_text" is required for create');
      if (info?.isDirectory()) return fail(`${requested} is a directory`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text, 'utf8');
      return ok(`${info ? 'Overwrote' : 'Created'} ${requested}`);
    }
    case 'str_replace': {
      const oldStr = str(input, 'old_str');
      const newStr = str(input, 'new_str') ?? '';
      if (oldStr === undefined || oldStr === '') return fail('"old_str" is required for str_replace');
      if (info === undefined || !info.isFile()) return fail(`${requested} is not an existing file`);
      const content = await readFile(file, 'utf8');
      const count = content.split(oldStr).length - 1;
      if (count === 0)
        return fail(`old_str was not found in ${requested}; it must match exactly, including whitespace`);
      if (count > 1) {
        const lines = content
          .split('\n')
          .flatMap((line, i) => (line.includes(oldStr.split('\n')[0] ?? '') ? [i + 1] : []));
        return fail(
          `old_str occurs ${count} times in ${requested} (lines ${lines.join(', ')}); include more context so it matches once`,
        );
      }
      await writeFile(
        file,
        content.replace(oldStr, () => newStr),
        'utf8',
      );
      return ok(`Edited ${requested}: replaced 1 occurrence`);
    }
    case 'insert': {
      const text = str(input, 'insert_text') ?? str(input, 'new_str');
      const at = input['insert_line'];
      if (text === undefined) return fail('"insert_text" (or "new_str") is required for insert');
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0)
        return fail('"insert_line" must be an integer >= 0');
      if (info === undefined || !info.isFile()) return fail(`${requested} is not an existing file`);
      const lines = (await readFile(file, 'utf8')).split('\n');
      if (at > lines.length) return fail(`insert_line ${at} is past the end of ${requested} (${lines.length} lines)`);
      lines.splice(at, 0, ...text.replace(/\n$/, '').split('\n'));
      await writeFile(file, lines.join('\n'), 'utf8');
      return ok(`Inserted text after line ${at} of ${requested}`);
    }
  }
}
