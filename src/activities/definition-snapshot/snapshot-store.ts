/**
 * The content-addressed store of definition snapshots (docs/concepts.md#definition-snapshot:
 * the configuration is fixed for the run). At run start the definition's files (agent.json, registry,
 * schemas, every prompt, retry templates, the system prompt) are copied to
 * `<root>/<digest>/`, where `digest` is the sha256 of the copy (hashDefinitionFiles:
 * paths and contents). The digest goes into history with the definition; every later
 * read opens the snapshot by digest and first checks that the directory still hashes to
 * it, so a run never reads a different definition than the one it started with:
 *
 * - missing on this worker (another host, a wiped state dir): rebuilt from the agent
 *   directory only if that still hashes to the same digest, else DEFINITION_CHANGED;
 * - present but different (edited, a file added or removed): DEFINITION_CHANGED.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { DefinitionSnapshotRef } from '../../contracts/definition.js';
import { hashDefinitionFiles, listFiles, type DefinitionFiles } from '../../definition/load/definition-files.js';

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
      const inside = files.files.filter((f) => isInside(files.root, f));
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

function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

async function isDirectory(dir: string): Promise<boolean> {
  return stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
