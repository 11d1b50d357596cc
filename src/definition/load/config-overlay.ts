/**
 * `config.json` and `config.local.json` beside agent.json: the runtime overlay that
 * upstream documents (agents/docs/builder/04_config_system.md) but never loads. We
 * load it, as documented: `config.local.json` > `config.json` > agent.json, objects
 * merged recursively, arrays and primitives replaced; `overrides` maps dotted paths
 * (`runner.boundaries.permissionMode`) to values. Upstream's shipped
 * `{"worktree":{"forceWorktree","worktreeRoot"}}` maps onto
 * `runner.execution.worktree.root` (a run always has a worktree, so forceWorktree
 * false is a warning). Any other top-level key is a warning naming the file.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pointer, warning, type Problem } from '../problem.js';
import { readJsonFile } from './read-json-file.js';

export const CONFIG_FILES = ['config.json', 'config.local.json'] as const;
const KNOWN_KEYS = ['$schema', 'version', 'overrides', 'worktree', 'runner', 'parameters'];

export interface Overlay {
  readonly value: unknown;
  readonly problems: Problem[];
  /** Absolute paths of the overlay files found (they belong to the definition hash). */
  readonly files: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isObj(base) || !isObj(over)) return over;
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = key in out ? deepMerge(out[key], value) : value;
  return out;
}

function setPath(root: Obj, dotted: string, value: unknown): Obj {
  const [head = '', ...rest] = dotted.split('.');
  if (rest.length === 0) return { ...root, [head]: value };
  const child = isObj(root[head]) ? root[head] : {};
  return { ...root, [head]: setPath(child, rest.join('.'), value) };
}

/** agent.json's value with every overlay file in `agentFileDir` applied. */
export async function applyConfigOverlay(agent: unknown, agentFileDir: string, relDir: string): Promise<Overlay> {
  const problems: Problem[] = [];
  const files: string[] = [];
  let value = agent;
  for (const name of CONFIG_FILES) {
    const abs = path.join(agentFileDir, name);
    if (
      !(await access(abs).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const file = relDir === '' ? name : `${relDir}/${name}`;
    const read = await readJsonFile(abs, file);
    if (!read.ok) {
      problems.push(read.problem);
      continue;
    }
    files.push(abs);
    if (!isObj(read.value) || !isObj(value)) continue;
    const { overrides, worktree, ...rest } = read.value;
    for (const key of Object.keys(rest).filter((k) => !KNOWN_KEYS.includes(k))) {
      problems.push(
        warning({
          code: 'CONFIG_KEY_UNKNOWN',
          file,
          pointer: pointer(key),
          rule: 'config-overlay-keys',
          expected: `keys among ${KNOWN_KEYS.join(', ')}`,
          message: `unknown key '${key}' is not applied`,
        }),
      );
    }
    const known = Object.fromEntries(Object.entries(rest).filter(([k]) => ['runner', 'parameters'].includes(k)));
    let merged = deepMerge(value, known) as Obj;
    if (isObj(worktree)) merged = applyWorktree(merged, worktree, file, problems);
    if (isObj(overrides)) for (const [dotted, v] of Object.entries(overrides)) merged = setPath(merged, dotted, v);
    value = merged;
  }
  return { value, problems, files };
}

function applyWorktree(agent: Obj, worktree: Obj, file: string, problems: Problem[]): Obj {
  let out = agent;
  if (typeof worktree['worktreeRoot'] === 'string') {
    out = setPath(out, 'runner.execution.worktree.root', worktree['worktreeRoot']);
  }
  if (worktree['forceWorktree'] === false) {
    problems.push(
      warning({
        code: 'CONFIG_WORKTREE_ALWAYS',
        file,
        pointer: '/worktree/forceWorktree',
        rule: 'config-overlay-keys',
        expected: 'true or absent (every run works in its own worktree)',
        message: 'forceWorktree false has no effect: runs always use a worktree',
      }),
    );
  }
  return out;
}
