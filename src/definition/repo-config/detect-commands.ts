/**
 * Sensible commands for a repository without `.agent/config.json` (or one that leaves
 * them out), from the files it holds: the first ecosystem of the registry (in its
 * detection order) whose files call for a test command gives them. Each choice carries
 * the reason, which the CLI prints, so the user sees what will run and how to change it.
 */
import type { DetectedCommands, EcosystemModule } from '../ecosystems/ecosystem.js';
import { ECOSYSTEMS } from '../ecosystems/ecosystem-registry.js';

export type { DetectedCommands } from '../ecosystems/ecosystem.js';

export async function detectCommands(
  dir: string,
  ecosystems: readonly EcosystemModule[] = ECOSYSTEMS,
): Promise<DetectedCommands> {
  for (const ecosystem of ecosystems) {
    const found = await ecosystem.testCommand?.(dir);
    if (found !== undefined) return found;
  }
  return { commands: {}, reasons: [] };
}
