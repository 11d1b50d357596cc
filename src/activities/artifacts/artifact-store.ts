/**
 * The run artifact store: a directory of content-addressed files (transcripts,
 * conversation checkpoints, large tool outputs). Workflow history and heartbeat
 * details carry only an ArtifactRef (path + sha256 + bytes), never the content,
 * so a long conversation cannot blow Temporal's payload or history limits.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactRef } from '../../contracts/activities.js';
import { AgentError } from '../../contracts/errors.js';
import { redactDeep } from '../edge/secret-redactor.js';
import { artifactFileName, sha256Hex } from './artifact-integrity.js';
import { isMissing } from '../../definition/load/read-optional.js';

export const ArtifactExt = { Json: 'json', Text: 'txt' } as const;
export type ArtifactExt = (typeof ArtifactExt)[keyof typeof ArtifactExt];

export interface ArtifactStore {
  /** Absolute directory the store writes into. */
  readonly dir: string;
  put(label: string, content: string | Uint8Array, ext?: ArtifactExt): Promise<ArtifactRef>;
  putJson(label: string, value: unknown): Promise<ArtifactRef>;
  /** Reads and verifies the sha256, so a truncated or edited file is never trusted. */
  read(ref: ArtifactRef): Promise<Buffer>;
  readJson<T = unknown>(ref: ArtifactRef): Promise<T>;
  /** A small named record, replaced atomically (write-then-rename, fsynced): e.g. the latest checkpoint. */
  writeRecord(name: string, value: unknown): Promise<void>;
  /** The record, or undefined when absent or unreadable. */
  readRecord(name: string): Promise<unknown>;
}

export interface ArtifactStoreOptions {
  /** Applied to everything written (secrets never reach disk); default: unchanged. */
  readonly redact?: (text: string) => string;
}

/** Path segments come from workflow ids and step ids: keep them to a safe alphabet. */
export function safeSegment(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return cleaned.length > 0 ? cleaned.slice(0, 120) : '_';
}

/** `<artifactsDir>/<workflowId>/<stepId>-<iteration>`: one directory per step attempt series. */
export function stepArtifactDir(artifactsDir: string, workflowId: string, stepId: string, iteration: number): string {
  return path.join(path.resolve(artifactsDir), safeSegment(workflowId), `${safeSegment(stepId)}-${iteration}`);
}

/** `<artifactsDir>/<workflowId>/validators/<completionStepId>`: the full output of each validator command. */
export function validatorArtifactDir(artifactsDir: string, workflowId: string, completionStepId: string): string {
  return path.join(path.resolve(artifactsDir), safeSegment(workflowId), 'validators', safeSegment(completionStepId));
}

export function createArtifactStore(dir: string, options: ArtifactStoreOptions = {}): ArtifactStore {
  const root = path.resolve(dir);
  const redact = options.redact ?? ((text: string) => text);
  // A step writes a checkpoint record and artifacts at every turn: `mkdir -p` once per
  // store (each one cost ~0.1 ms of the worker's CPU), again only if the dir went away.
  let rootMade = false;
  async function inRoot<T>(write: () => Promise<T>): Promise<T> {
    if (!rootMade) await mkdir(root, { recursive: true });
    rootMade = true;
    try {
      return await write();
    } catch (err) {
      if (!isMissing(err)) throw err;
      await mkdir(root, { recursive: true });
      return write();
    }
  }

  async function put(
    label: string,
    content: string | Uint8Array,
    ext: ArtifactExt = ArtifactExt.Text,
  ): Promise<ArtifactRef> {
    const bytes = typeof content === 'string' ? Buffer.from(redact(content), 'utf8') : Buffer.from(content);
    const sha256 = sha256Hex(bytes);
    const file = path.join(root, artifactFileName(safeSegment(label), sha256, ext));
    // Same content, same name: an existing file is already the right one (idempotent on retries).
    const existing = await stat(file).catch(() => undefined);
    if (existing?.size !== bytes.length) {
      // Write-then-rename so a crash never leaves a half-written file under its final name.
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await inRoot(() => writeFile(tmp, bytes));
      await rename(tmp, file);
    }
    return { path: file, sha256, bytes: bytes.length };
  }

  async function read(ref: ArtifactRef): Promise<Buffer> {
    let bytes: Buffer;
    try {
      bytes = await readFile(ref.path);
    } catch (error) {
      throw new AgentError('ARTIFACT_MISSING', `artifact ${ref.path} cannot be read: ${(error as Error).message}`, {
        where: ref.path,
      });
    }
    const actual = sha256Hex(bytes);
    if (actual !== ref.sha256) {
      throw new AgentError('ARTIFACT_CORRUPT', `artifact ${ref.path} does not match its sha256`, {
        where: ref.path,
        expected: `sha256 ${ref.sha256}`,
        details: { actual },
      });
    }
    return bytes;
  }

  return {
    dir: root,
    put,
    putJson: (label, value) => put(label, JSON.stringify(redactDeep(value, redact)), ArtifactExt.Json),
    read,
    async writeRecord(name, value) {
      const file = path.join(root, `${safeSegment(name)}.record.json`);
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      const handle = await inRoot(() => open(tmp, 'w'));
      try {
        await handle.writeFile(JSON.stringify(redactDeep(value, redact)));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    },
    async readRecord(name) {
      try {
        return JSON.parse(await readFile(path.join(root, `${safeSegment(name)}.record.json`), 'utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
    async readJson<T>(ref: ArtifactRef): Promise<T> {
      return JSON.parse((await read(ref)).toString('utf8')) as T;
    },
  };
}

export function isArtifactRef(value: unknown): value is ArtifactRef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['path'] === 'string' && typeof v['sha256'] === 'string' && typeof v['bytes'] === 'number';
}
