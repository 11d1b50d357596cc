/**
 * The eval task file: a named list of tasks, each a repository at a commit, an issue
 * text, and hidden checks the agent never sees (commands run after delivery, with
 * optional hidden files written first). A bad file fails loudly with a JSON pointer.
 * SWE-bench task files (JSONL) are read by swe-jsonl.ts and swe-tasks.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { AgentError, UsageError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { looksLikeSwe, parseSweFile, type SweTask } from './swe-jsonl.js';
import { sweEvalTask, type RepoLookup } from './swe-tasks.js';

export interface EvalTask {
  readonly id: string;
  /** A directory to copy (made a git repository when it is not one), or a git URL/path to clone. */
  readonly repo: string;
  /** A commit to check out; default the repository's HEAD. */
  readonly commit?: string;
  readonly issue: { readonly title: string; readonly body: string };
  readonly checks: readonly string[];
  /** Files written into the delivered tree just before the checks (path → content). */
  readonly hiddenFiles: Readonly<Record<string, string>>;
  /** An offline session script for this task (used with --offline). */
  readonly session?: string;
  /** A SWE-bench task (JSONL): its hidden checks are its tests by name (swe-checks.ts), not `checks`. */
  readonly swe?: SweTask;
}

export interface EvalTaskFile {
  readonly name: string;
  readonly tasks: readonly EvalTask[];
}

const ID = /^[a-z0-9][a-z0-9._-]{0,49}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(where: string, message: string, expected: string): never {
  throw new AgentError(FailureType.ConfigInvalid, `invalid eval task file: ${message}`, { where, expected });
}

function str(v: unknown, where: string, what: string): string {
  if (typeof v !== 'string' || v.trim() === '') invalid(where, `${what} is missing`, 'a non-empty string');
  return v;
}

/** Local paths are relative to the task file; git URLs (scheme or user@host:) stay as they are. */
function resolvePath(base: string, value: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[^/\s]+@[^/\s]+:/.test(value) || isAbsolute(value)) return value;
  return resolve(base, value);
}

export function parseTaskFile(value: unknown, file: string): EvalTaskFile {
  const base = dirname(file);
  if (!isObject(value)) invalid(file, 'the file must hold a JSON object', '{ "name", "tasks": [...] }');
  const tasks = value['tasks'];
  if (!Array.isArray(tasks) || tasks.length === 0) invalid(`${file}#/tasks`, 'tasks is missing', 'a non-empty array');
  const ids = new Set<string>();
  const parsed = tasks.map((t: unknown, i): EvalTask => {
    const at = `${file}#/tasks/${i}`;
    if (!isObject(t)) invalid(at, 'a task must be an object', '{ id, repo, issue, checks }');
    const id = str(t['id'], `${at}/id`, 'id');
    if (!ID.test(id))
      invalid(`${at}/id`, `bad id ${JSON.stringify(id)}`, 'lower case letters, digits, . _ - (up to 50)');
    if (ids.has(id)) invalid(`${at}/id`, `duplicate id ${id}`, 'unique ids');
    ids.add(id);
    const issue = t['issue'];
    if (!isObject(issue)) invalid(`${at}/issue`, 'issue is missing', '{ "title", "body" }');
    const checks = t['checks'];
    if (!Array.isArray(checks) || checks.length === 0 || !checks.every((c) => typeof c === 'string' && c.trim()))
      invalid(`${at}/checks`, 'checks is missing', 'a non-empty array of shell commands');
    const hidden = t['hiddenFiles'] ?? {};
    if (!isObject(hidden) || !Object.values(hidden).every((v) => typeof v === 'string'))
      invalid(`${at}/hiddenFiles`, 'hiddenFiles must map paths to file contents', '{ "path": "content" }');
    for (const path of Object.keys(hidden))
      if (isAbsolute(path) || path.split(/[\\/]/).includes('..'))
        invalid(`${at}/hiddenFiles`, `hidden file ${path} leaves the repository`, 'a relative path inside it');
    const commit = t['commit'];
    if (commit !== undefined && (typeof commit !== 'string' || !/^[0-9a-f]{4,40}$|^[\w./-]+$/.test(commit)))
      invalid(`${at}/commit`, 'bad commit', 'a commit id or ref');
    const session = t['session'];
    return {
      id,
      repo: resolvePath(base, str(t['repo'], `${at}/repo`, 'repo')),
      ...(typeof commit === 'string' ? { commit } : {}),
      issue: {
        title: str(issue['title'], `${at}/issue/title`, 'title'),
        body: str(issue['body'], `${at}/issue/body`, 'body'),
      },
      checks: checks as string[],
      hiddenFiles: hidden as Record<string, string>,
      ...(typeof session === 'string' ? { session: resolvePath(base, session) } : {}),
    };
  });
  return { name: typeof value['name'] === 'string' ? value['name'] : file, tasks: parsed };
}

/** Our JSON task file, or SWE-bench tasks (JSONL or a JSON array), told apart by content. */
export function loadTaskFile(file: string, lookup: RepoLookup = {}): EvalTaskFile {
  const path = resolve(file);
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    invalid(path, 'the file cannot be read', 'a readable JSON file (e.g. eval/tasks.json)');
  }
  if (looksLikeSwe(raw)) {
    const rows = parseSweFile(raw, path);
    const tasks = rows.map((row) => sweEvalTask(row.task, lookup, row.at));
    const ids = new Set<string>();
    tasks.forEach((t, i) => {
      if (ids.has(t.id)) invalid(`${rows[i]?.at ?? path}#/instance_id`, `duplicate instance_id ${t.id}`, 'unique ids');
      ids.add(t.id);
    });
    return { name: path, tasks };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    invalid(path, `not JSON (${(err as Error).message})`, 'a JSON object');
  }
  return parseTaskFile(json, path);
}

/** The tasks `--only` names (comma-separated ids), in the file's order; all when absent. A name no task has is refused. */
export function selectTasks(tasks: readonly EvalTask[], only: string | undefined): readonly EvalTask[] {
  if (only === undefined) return tasks;
  const ids = only.split(',').map((s) => s.trim());
  const unknown = ids.find((id) => !tasks.some((t) => t.id === id));
  if (unknown !== undefined)
    throw new UsageError(`--only names no task "${unknown}"; tasks: ${tasks.map((t) => t.id).join(', ')}`, '--only');
  return tasks.filter((t) => ids.includes(t.id));
}
