/**
 * The definition-snapshot port of the run's activities. `load` is the run's
 * loadDefinition: it validates the agent directory, copies its files into the store and
 * returns the definition with `snapshot` set (so the digest lands in history). The other
 * functions take an activity input that names the snapshot and return it with every
 * definition path (agentDir, promptsDir, schemasDir) moved into this worker's verified
 * copy: the readers below them (C3L prompts, schemas, retry templates, the system
 * prompt, a custom completion handler) then never see the agent directory again. An
 * input without a snapshot (a run from before snapshots) is returned unchanged, and so
 * is a custom handler input whose snapshot does not hold the handler (taken before
 * handlers were part of it: that run goes on as it started, from the agent directory).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
  CustomVerdictInput,
  LoadDefinitionInput,
  QueryStepInput,
  ResolvePromptInput,
  ResolveSchemaInput,
} from '../../contracts/activities.js';
import type { AgentDefinition, DefinitionSnapshotRef } from '../../contracts/definition.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { BuildRetryPromptInput } from '../../contracts/validation.js';
import { DefinitionError } from '../../definition/definition-error.js';
import { loadAgentDefinition } from '../../definition/load/load-agent-definition.js';
import type { DefinitionFiles } from '../../definition/load/definition-files.js';
import type { SnapshotStore } from './snapshot-store.js';

export interface DefinitionSnapshots {
  load(input: LoadDefinitionInput): Promise<AgentDefinition>;
  prompt(input: ResolvePromptInput): Promise<ResolvePromptInput>;
  schema(input: ResolveSchemaInput): Promise<ResolveSchemaInput>;
  retry(input: BuildRetryPromptInput): Promise<BuildRetryPromptInput>;
  query(input: QueryStepInput): Promise<QueryStepInput>;
  custom(input: CustomVerdictInput): Promise<CustomVerdictInput>;
}

export function createDefinitionSnapshots(store: SnapshotStore): DefinitionSnapshots {
  const open = async (ref: DefinitionSnapshotRef): Promise<(p: string) => string> => {
    const dir = await store.open(ref, () => filesNow(ref));
    return (p) => {
      const rel = path.relative(ref.agentDir, p);
      if (rel.startsWith('..') || path.isAbsolute(rel))
        throw new AgentError(FailureType.DefinitionChanged, `${p} is outside the run's definition snapshot`, {
          where: p,
          expected: `a path under ${ref.agentDir}`,
        });
      return path.join(dir, rel);
    };
  };
  const prompt = (to: (p: string) => string, input: ResolvePromptInput): ResolvePromptInput => ({
    ...input,
    agentDir: to(input.agentDir),
    promptsDir: to(input.promptsDir),
  });
  const schema = <T extends ResolveSchemaInput>(to: (p: string) => string, input: T): T => ({
    ...input,
    schemasDir: to(input.schemasDir),
  });
  return {
    async load({ agentDir, overrides }) {
      // Twice at most: a file edited while it was being loaded shows as a digest that
      // differs from the hash the load computed; the second load sees the edit.
      for (let attempt = 1; ; attempt++) {
        const result = await loadAgentDefinition(agentDir, overrides);
        if (!result.ok) throw new DefinitionError(path.resolve(agentDir), result.problems);
        const digest = await store.put(result.files);
        const whole = result.files.files.every((f) => !path.relative(result.files.root, f).startsWith('..'));
        if (whole && digest !== result.files.hash && attempt < 2) continue;
        return { ...result.definition, snapshot: { digest, agentDir: result.definition.agentDir } };
      }
    },
    async prompt(input) {
      return input.snapshot === undefined ? input : prompt(await open(input.snapshot), input);
    },
    async schema(input) {
      return input.snapshot === undefined ? input : schema(await open(input.snapshot), input);
    },
    async retry(input) {
      if (input.snapshot === undefined) return input;
      const to = await open(input.snapshot);
      return { ...input, promptsDir: to(input.promptsDir) };
    },
    async custom(input) {
      if (input.snapshot === undefined) return input;
      const agentDir = (await open(input.snapshot))(input.agentDir);
      return existsSync(path.resolve(agentDir, input.handlerPath)) ? { ...input, agentDir } : input;
    },
    async query(input) {
      const ref = input.system.snapshot ?? input.stepPrompt?.snapshot ?? input.stepSchema?.snapshot;
      if (ref === undefined) return input;
      const to = await open(ref);
      return {
        ...input,
        system: prompt(to, input.system),
        ...(input.stepPrompt === undefined ? {} : { stepPrompt: prompt(to, input.stepPrompt) }),
        ...(input.stepSchema === undefined ? {} : { stepSchema: schema(to, input.stepSchema) }),
      };
    },
  };
}

/** The definition's files as the agent directory holds them now (a worker without the snapshot). */
async function filesNow(ref: DefinitionSnapshotRef): Promise<DefinitionFiles> {
  const result = await loadAgentDefinition(ref.agentDir);
  if (result.ok) return result.files;
  throw new AgentError(
    FailureType.DefinitionChanged,
    `the run's definition snapshot is not on this worker, and ${ref.agentDir} no longer loads`,
    {
      where: ref.agentDir,
      expected: `the definition with snapshot sha256 ${ref.digest}`,
      details: { digest: ref.digest },
    },
  );
}
