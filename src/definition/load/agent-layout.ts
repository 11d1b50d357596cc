/**
 * Where the files of an agent live. Two layouts are accepted:
 * - the project's default agent: `registry/agent.json`, `registry/steps_registry.json`,
 *   `registry/schemas/`, `prompts/` (detected by the presence of `registry/agent.json`);
 * - the upstream layout: `agent.json`, `steps_registry.json`, `schemas/`, `prompts/`.
 * In both, the registry path from `runner.flow.prompts.registry` and the `schemas/`
 * directory are relative to the directory holding agent.json; prompts and the system
 * prompt path are relative to the agent directory.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';

export const LayoutKind = { Default: 'default', Upstream: 'upstream' } as const;
export type LayoutKind = (typeof LayoutKind)[keyof typeof LayoutKind];

export const DEFAULT_REGISTRY_FILE = 'steps_registry.json';

export interface AgentLayout {
  readonly kind: LayoutKind;
  /** Absolute agent directory. */
  readonly agentDir: string;
  /** Absolute directory holding agent.json. */
  readonly configDir: string;
  readonly agentPath: string;
  readonly schemasDir: string;
  readonly promptsDir: string;
}

export async function detectLayout(agentDir: string): Promise<AgentLayout> {
  const root = path.resolve(agentDir);
  const defaultConfig = path.join(root, 'registry');
  const isDefault = await exists(path.join(defaultConfig, 'agent.json'));
  const configDir = isDefault ? defaultConfig : root;
  return {
    kind: isDefault ? LayoutKind.Default : LayoutKind.Upstream,
    agentDir: root,
    configDir,
    agentPath: path.join(configDir, 'agent.json'),
    schemasDir: path.join(configDir, 'schemas'),
    promptsDir: path.join(root, 'prompts'),
  };
}

/** Absolute registry path for `runner.flow.prompts.registry` (default `steps_registry.json`). */
export function registryPath(layout: AgentLayout, registry: string | undefined): string {
  return path.resolve(layout.configDir, registry ?? DEFAULT_REGISTRY_FILE);
}

/** agentDir-relative path with `/` separators: the `file` of a Problem. */
export function relativeToAgent(layout: AgentLayout, absPath: string): string {
  return path.relative(layout.agentDir, absPath).split(path.sep).join('/');
}

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}
