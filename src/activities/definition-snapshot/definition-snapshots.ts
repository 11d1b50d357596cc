/**
 * The run's definition snapshot (docs/concepts.md#definition-snapshot: the configuration
 * is fixed for the run). At run start the definition's files (agent.json, registry,
 * schemas, every prompt, retry templates, the system prompt) are copied to a
 * content-addressed store, `<root>/<digest>/`, where `digest` is the sha256 of the copy
 * (hashDefinitionFiles: paths and contents); the digest goes into history with the
 * definition. Every later read opens the snapshot by digest and first checks that the
 * directory still hashes to it, so a run never reads a different definition than the one
 * it started with: missing on this worker (another host, a wiped state dir), it is rebuilt
 * from the agent directory only if that still hashes to the same digest; present but
 * different (edited, a file added or removed), or not rebuildable: DEFINITION_CHANGED.
 *
 * The port (`DefinitionSnapshots`): `load` is the run's loadDefinition (validates the
 * agent directory, stores its files, returns the definition with `snapshot` set). The
 * others take an activity input that names the snapshot and return it with every
 * definition path (agentDir, promptsDir, schemasDir) moved into this worker's verified
 * copy: the readers below them (C3L prompts, schemas, retry templates, the system
 * prompt, a custom completion handler) then never see the agent directory again. An
 * input without a snapshot (a run from before snapshots) is returned unchanged, and so
 * is a custom handler input whose snapshot does not hold the handler (taken before
 * handlers were part of it: that run goes on as it started, from the agent directory).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
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
import { hashDefinitionFiles, listFiles, type DefinitionFiles } from '../../definition/load/definition-files.js';
import { isInside, isStrictlyInside } from '../../definition/load/path-inside.js';

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
      if (!isInside(ref.agentDir, p))
        throw new AgentError(FailureType.DefinitionChanged, `${p} is outside the run's definition snapshot`, {
          where: p,
          expected: `a path under ${ref.agentDir}`,
        });
      return path.join(dir, path.relative(ref.agentDir, p));
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
        const whole = result.files.files.every((f) => isInside(result.files.root, f));
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

export interface SnapshotStore {
  readonly root: string;
  /** Copies the files into the store (once per digest) and returns the snapshot's digest. */
  put(files: DefinitionFiles): Promise<string>;
  /**
   * The local directory of a verified snapshot. `rebuild` gives the definition's files as
   * they are now, for a worker that does not hold the snapshot.
   */
  open(ref: DefinitionSnapshotRef, rebuild: () => Promise<DefinitionFiles>): Promise<string>;
}

export function createSnapshotStore(root: string): SnapshotStore {
  const dirOf = (digest: string): string => path.join(root, digest);
  return {
    root,
    async put(files) {
      const inside = files.files.filter((f) => isStrictlyInside(files.root, f));
      const tmp = path.join(root, `.tmp-${randomUUID()}`);
      try {
        for (const file of inside) {
          const target = path.join(tmp, path.relative(files.root, file));
          await mkdir(path.dirname(target), { recursive: true });
          await copyFile(file, target);
        }
        await mkdir(tmp, { recursive: true });
        const digest = await digestOf(tmp);
        const dir = dirOf(digest);
        if ((await isDirectory(dir)) && (await digestOf(dir)) === digest) return digest;
        await rm(dir, { recursive: true, force: true });
        await rename(tmp, dir).catch(async (err: unknown) => {
          // Another worker stored the same snapshot meanwhile: theirs is as good as ours.
          if (!(await isDirectory(dir))) throw err;
        });
        return digest;
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
    },
    async open(ref, rebuild) {
      const dir = dirOf(checkedDigest(ref.digest));
      if (!(await isDirectory(dir))) {
        const now = await rebuild();
        const digest = await this.put(now);
        if (digest !== ref.digest)
          throw changed(ref, `it is not in ${root}, and ${ref.agentDir} now holds ${short(digest)}`);
        return dir;
      }
      const found = await digestOf(dir);
      if (found !== ref.digest)
        throw changed(ref, `${dir} now hashes to ${short(found)} (edited, added or removed files)`);
      return dir;
    },
  };
}

/** The digest of a snapshot directory: every file in it, as the definition hash counts them. */
export async function digestOf(dir: string): Promise<string> {
  const files = (await listFiles(dir)).map((rel) => path.join(dir, ...rel.split('/')));
  return hashDefinitionFiles(dir, files);
}

function changed(ref: DefinitionSnapshotRef, why: string): AgentError {
  return new AgentError(
    FailureType.DefinitionChanged,
    `the run's definition snapshot ${short(ref.digest)} of ${ref.agentDir} is gone or changed: ${why}; ` +
      'the run does not go on with a different definition',
    {
      where: ref.agentDir,
      expected: `the snapshot with sha256 ${ref.digest} (start a new run to use the definition as it is now)`,
      details: { digest: ref.digest },
    },
  );
}

function checkedDigest(digest: string): string {
  if (/^[0-9a-f]{64}$/.test(digest)) return digest;
  throw new AgentError(FailureType.DefinitionChanged, `${JSON.stringify(digest)} is not a snapshot digest`, {
    where: 'definition.snapshot.digest',
    expected: 'a sha256 in hex (64 characters)',
  });
}

const short = (digest: string): string => digest.slice(0, 12);

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
