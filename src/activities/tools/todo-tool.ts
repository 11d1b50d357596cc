/**
 * The `TodoWrite` tool: the model's plan, with Claude Code's TodoWrite input
 * (`{ todos: [{ content, status, activeForm }] }`; the older `id`/`priority` fields are
 * kept too). It runs nothing and touches no worktree file: the list is kept in the
 * run's artifacts (`<artifactsDir>/<workflowId>/plan/todos.json`, replaced atomically),
 * so it survives steps, activity retries and worker restarts; each step starts a fresh
 * conversation, so a call without `todos` reads the plan back (upstream prompts ask
 * "Review TodoWrite – what tasks are pending?").
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeSegment } from '../artifacts/artifact-store.js';
import type { LlmToolDefinition } from '../model/llm-client.js';
import { ToolName, type ToolContext, type ToolResult } from './tool-types.js';
import { readOptional } from '../../definition/load/read-optional.js';

export const TodoStatus = { Pending: 'pending', InProgress: 'in_progress', Completed: 'completed' } as const;
export type TodoStatus = (typeof TodoStatus)[keyof typeof TodoStatus];

export interface TodoItem {
  readonly content: string;
  readonly status: TodoStatus;
  readonly activeForm?: string;
  readonly id?: string;
  readonly priority?: string;
}

const MAX_ITEMS = 100;
const MAX_TEXT = 500;

export const TODO_TOOL: LlmToolDefinition = {
  type: 'custom',
  name: ToolName.Todo,
  description:
    'Keep your plan for this issue as a todo list. Send the whole list each time (it replaces the previous one). ' +
    'The list is kept across steps of the run: call with no "todos" to read it back. It runs nothing.',
  input_schema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            content: { type: 'string' },
            status: { type: 'string', enum: Object.values(TodoStatus) },
            activeForm: { type: 'string' },
          },
          required: ['content', 'status'],
        },
      },
    },
  },
};

export function todoFile(artifactsDir: string, workflowId: string): string {
  return path.join(path.resolve(artifactsDir), safeSegment(workflowId), 'plan', 'todos.json');
}

export async function readTodos(file: string): Promise<TodoItem[]> {
  const text = await readOptional(file);
  if (text === undefined) return [];
  const parsed = JSON.parse(text) as { todos?: TodoItem[] };
  return Array.isArray(parsed.todos) ? parsed.todos : [];
}

/** Checks the model's list; a string naming the first problem, or the clean items. */
export function parseTodos(value: unknown): TodoItem[] | string {
  if (!Array.isArray(value)) return '"todos" must be an array of {content, status, activeForm}';
  if (value.length > MAX_ITEMS) return `at most ${MAX_ITEMS} todos`;
  const items: TodoItem[] = [];
  for (const [i, raw] of value.entries()) {
    if (typeof raw !== 'object' || raw === null) return `todos[${i}] must be an object`;
    const r = raw as Record<string, unknown>;
    if (typeof r['content'] !== 'string' || r['content'].trim() === '')
      return `todos[${i}].content must be a non-empty string`;
    if (!(Object.values(TodoStatus) as unknown[]).includes(r['status']))
      return `todos[${i}].status must be one of ${Object.values(TodoStatus).join(', ')} (got ${JSON.stringify(r['status'])})`;
    items.push({
      content: r['content'].slice(0, MAX_TEXT),
      status: r['status'] as TodoStatus,
      ...(typeof r['activeForm'] === 'string' ? { activeForm: r['activeForm'].slice(0, MAX_TEXT) } : {}),
      ...(typeof r['id'] === 'string' ? { id: r['id'].slice(0, 100) } : {}),
      ...(typeof r['priority'] === 'string' ? { priority: r['priority'].slice(0, 20) } : {}),
    });
  }
  return items;
}

export function formatTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'The plan is empty.';
  const mark: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
  const done = items.filter((t) => t.status === 'completed').length;
  return [`Plan (${done}/${items.length} completed):`, ...items.map((t) => `${mark[t.status]} ${t.content}`)].join(
    '\n',
  );
}

export async function runTodo(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.run === undefined) return { content: 'Error: the todo list is not available in this step.', isError: true };
  const file = todoFile(ctx.run.artifactsDir, ctx.run.workflowId);
  if (input['todos'] === undefined) return { content: formatTodos(await readTodos(file)), isError: false };
  const items = parseTodos(input['todos']);
  if (typeof items === 'string') return { content: `Error: ${items}`, isError: true };
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ todos: items }, null, 2)}\n`, 'utf8');
  await rename(tmp, file);
  return { content: `Plan saved.\n${formatTodos(items)}`, isError: false };
}
