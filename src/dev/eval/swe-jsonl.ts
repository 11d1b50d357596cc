/**
 * SWE-bench task files: one JSON object per line (`instance_id`, `repo`, `base_commit`,
 * `patch`, `test_patch`, `problem_statement`, `FAIL_TO_PASS`, `PASS_TO_PASS`; the lists
 * as arrays or, as the published datasets store them, JSON-encoded strings), plus the
 * fields `eval --mine` adds: `test_command`, `repo_path` (the clone it was mined from),
 * `commit` (the gold commit), `setup_commands` (the setup it used, when configured). A bad line fails with its line number and field.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export interface SweTask {
  readonly instanceId: string;
  /** As written (`owner/name`); found locally through the repository map. */
  readonly repo: string;
  readonly baseCommit: string;
  readonly patch: string;
  readonly testPatch: string;
  readonly problemStatement: string;
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
  readonly testCommand?: string;
  /** The setup commands the miner used (`commands.setup` of its `.agent/config.json`). */
  readonly setup?: readonly string[];
  readonly repoPath?: string;
  readonly commit?: string;
  readonly createdAt?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(where: string, message: string, expected: string): never {
  throw new AgentError(FailureType.ConfigInvalid, `invalid SWE-bench task file: ${message}`, { where, expected });
}

function text(row: Record<string, unknown>, key: string, at: string, allowEmpty = false): string {
  const v = row[key];
  if (typeof v !== 'string' || (!allowEmpty && v.trim() === ''))
    bad(`${at}#/${key}`, `${key} is missing or not a string`, allowEmpty ? 'a string' : 'a non-empty string');
  return v;
}

function names(row: Record<string, unknown>, key: string, at: string): string[] {
  let v = row[key];
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      bad(`${at}#/${key}`, `${key} is a string but not a JSON list`, 'a list of test names (or its JSON text)');
    }
  }
  if (!Array.isArray(v) || !v.every((n) => typeof n === 'string'))
    bad(`${at}#/${key}`, `${key} must be a list of test names`, 'an array of strings');
  return v as string[];
}

export function parseSweTask(row: unknown, at: string): SweTask {
  if (!isObject(row)) bad(at, 'a task must be a JSON object', 'one object per line');
  const base = text(row, 'base_commit', at);
  if (!/^[0-9a-f]{7,40}$/i.test(base))
    bad(`${at}#/base_commit`, `bad base_commit ${JSON.stringify(base)}`, 'a commit id');
  const failToPass = names(row, 'FAIL_TO_PASS', at);
  if (failToPass.length === 0)
    bad(`${at}#/FAIL_TO_PASS`, 'FAIL_TO_PASS is empty: nothing would show the issue fixed', 'at least one test');
  const optional = (key: string): string | undefined => {
    const v = row[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' || v.trim() === '') bad(`${at}#/${key}`, `${key} must be a non-empty string`, 'a string');
    return v;
  };
  const testCommand = optional('test_command');
  const repoPath = optional('repo_path');
  const commit = optional('commit');
  const createdAt = optional('created_at');
  const setup = row['setup_commands'];
  if (setup !== undefined && (!Array.isArray(setup) || !setup.every((c) => typeof c === 'string' && c.trim() !== '')))
    bad(`${at}#/setup_commands`, 'setup_commands must be a list of commands', 'an array of non-empty strings');
  return {
    instanceId: text(row, 'instance_id', at),
    repo: text(row, 'repo', at),
    baseCommit: base,
    patch: text(row, 'patch', at),
    testPatch: text(row, 'test_patch', at),
    problemStatement: text(row, 'problem_statement', at),
    failToPass,
    passToPass: names(row, 'PASS_TO_PASS', at),
    ...(testCommand === undefined ? {} : { testCommand }),
    ...(setup === undefined ? {} : { setup: setup as string[] }),
    ...(repoPath === undefined ? {} : { repoPath }),
    ...(commit === undefined ? {} : { commit }),
    ...(createdAt === undefined ? {} : { createdAt }),
  };
}

/** Whether a file's text is SWE-bench tasks (JSONL, or a JSON array or object of them), not our JSON format. */
export function looksLikeSwe(raw: string): boolean {
  const first = raw.trimStart();
  if (first.startsWith('[')) return true;
  try {
    const whole: unknown = JSON.parse(raw);
    return isObject(whole) && 'instance_id' in whole;
  } catch {
    return first.startsWith('{');
  }
}

/** A task and where it is (`file:line`, or `file#/index` in a JSON array). */
export interface SweRow {
  readonly at: string;
  readonly task: SweTask;
}

/** Every task of a SWE-bench file; `file` names it in errors (`file:line#/field`). */
export function parseSweFile(raw: string, file: string): SweRow[] {
  const first = raw.trimStart();
  if (first.startsWith('[')) {
    let rows: unknown;
    try {
      rows = JSON.parse(raw);
    } catch (err) {
      bad(file, `not JSON (${(err as Error).message})`, 'a JSON array of tasks, or one task per line');
    }
    if (!Array.isArray(rows)) bad(file, 'not a JSON array', 'a JSON array of tasks');
    return rows.map((row, i) => ({ at: `${file}#/${i}`, task: parseSweTask(row, `${file}#/${i}`) }));
  }
  const tasks: SweRow[] = [];
  raw.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (err) {
      bad(`${file}:${i + 1}`, `line ${i + 1} is not JSON (${(err as Error).message})`, 'one JSON object per line');
    }
    tasks.push({ at: `${file}:${i + 1}`, task: parseSweTask(row, `${file}:${i + 1}`) });
  });
  if (tasks.length === 0) bad(file, 'no tasks', 'one JSON object per line');
  return tasks;
}

/** One JSONL line: SWE-bench's fields first, then ours. */
export function sweLine(task: SweTask): string {
  return JSON.stringify({
    instance_id: task.instanceId,
    repo: task.repo,
    base_commit: task.baseCommit,
    patch: task.patch,
    test_patch: task.testPatch,
    problem_statement: task.problemStatement,
    hints_text: '',
    created_at: task.createdAt ?? '',
    FAIL_TO_PASS: task.failToPass,
    PASS_TO_PASS: task.passToPass,
    ...(task.testCommand === undefined ? {} : { test_command: task.testCommand }),
    ...(task.setup === undefined ? {} : { setup_commands: task.setup }),
    ...(task.repoPath === undefined ? {} : { repo_path: task.repoPath }),
    ...(task.commit === undefined ? {} : { commit: task.commit }),
  });
}
