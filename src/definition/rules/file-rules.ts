/** Rules about the two files as wholes: unknown top-level keys and the agent id. */
import { pointer, problem, warning, type Problem } from '../problem.js';
import { KNOWN_AGENT_KEYS } from '../file-schemas/agent-file-schema.js';
import { KNOWN_REGISTRY_KEYS } from '../file-schemas/registry-file-schema.js';
import type { DefinitionRule } from './rule.js';

/** Unknown top-level keys are usually typos; upstream warned too, so do not fail on them. */
export const unknownTopLevelKeys: DefinitionRule = (ctx) => [
  ...unknownKeys(ctx.agent, KNOWN_AGENT_KEYS, ctx.agentFile),
  ...unknownKeys(ctx.registry, KNOWN_REGISTRY_KEYS, ctx.registryFile),
];

function unknownKeys(value: object, known: readonly string[], file: string): Problem[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) =>
      warning({
        code: 'UNKNOWN_KEY',
        file,
        pointer: pointer(key),
        rule: 'known-top-level-keys',
        expected: `one of ${known.join(', ')}`,
        message: `unknown top-level key '${key}' is ignored`,
      }),
    );
}

/** The registry belongs to the agent that names it (upstream SR-LOAD-002). */
export const agentIdMatchesName: DefinitionRule = (ctx) => {
  const agentId = ctx.registry.agentId;
  if (agentId === undefined || agentId === ctx.agent.name) return [];
  return [
    problem({
      code: 'AGENT_ID_MISMATCH',
      file: ctx.registryFile,
      pointer: '/agentId',
      rule: 'agent-id-equals-name',
      expected: `'${ctx.agent.name}' (agent.json name)`,
      message: `agentId '${agentId}' differs from the agent name`,
    }),
  ];
};
