/**
 * The repository's settings over agent.json (`.agent/config.json` or detected commands):
 * applied to the parsed file before normalising, so the built-in validators and every
 * rule see them exactly as if written in agent.json; and folded into the definition hash,
 * so two runs with different commands never claim the same definition.
 */
import { createHash } from 'node:crypto';
import type { DefinitionOverrides } from '../../contracts/repo-config.js';
import type { RawAgentFile } from './raw-files.js';

export function applyOverrides(agent: RawAgentFile, overrides: DefinitionOverrides): RawAgentFile {
  const runner = agent.runner;
  const commands = { ...runner.validation?.commands, ...overrides.validationCommands };
  return {
    ...agent,
    runner: {
      ...runner,
      validation: { ...runner.validation, commands },
      ...(overrides.model === undefined ? {} : { model: { ...runner.model, model: overrides.model } }),
    },
  };
}

function isEmpty(overrides: DefinitionOverrides | undefined): boolean {
  return (
    overrides === undefined ||
    (overrides.model === undefined && Object.keys(overrides.validationCommands ?? {}).length === 0)
  );
}

export function overridesHash(filesHash: string, overrides: DefinitionOverrides | undefined): string {
  if (isEmpty(overrides)) return filesHash;
  const digest = createHash('sha256').update(filesHash).update(JSON.stringify(overrides)).digest('hex');
  return digest.slice(0, filesHash.length);
}
