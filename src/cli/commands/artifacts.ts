/**
 * `issue-agent artifacts --issue N [--repo PATH] [--agent NAME|DIR] [--show FILE]`:
 * lists what a run saved (model turns: transcripts and conversation checkpoints; large
 * tool results; validator output) with absolute paths, or prints one file. Reads the
 * repository's artifact directory (`<git-dir>/agent/artifacts`) directly: no Temporal
 * connection is needed, so it works after the run and without a server.
 * `--show` checks a file against the sha256 its name carries and refuses to print one
 * whose content no longer matches (exit 3, SHOW_MISMATCH): the listing reads no contents.
 * Human lines go through printLine; `--show` on a terminal through terminalText (shownBytes).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { safeSegment } from '../../activities/artifacts/artifact-store.js';
import { ArtifactCheck, checkArtifactBytes } from '../../activities/artifacts/artifact-integrity.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalString, requireIssue } from '../flags/parse-flags.js';
import { repoIdentity, workflowIdFor } from '../../host/repo-identity.js';
import { localRepositoryOf, loadDefinition, userCwd } from '../run-target.js';
import { artifactsDirOf } from '../../host/state-paths.js';
import { printLine, terminalText } from '../../host/terminal-text.js';

export const ArtifactKind = {
  Transcript: 'model-transcript',
  Checkpoint: 'model-turns',
  ToolResult: 'tool-result',
  Validator: 'validator-output',
  Other: 'other',
} as const;
export type ArtifactKind = (typeof ArtifactKind)[keyof typeof ArtifactKind];

/** `--show`'s exit code for a file whose content does not match the sha256 in its name (1: nothing found, 2: usage). */
export const SHOW_MISMATCH = 3;

export interface ArtifactEntry {
  readonly kind: ArtifactKind;
  /** `<step>-<iteration>` or `validators/<completion step>`. */
  readonly group: string;
  readonly path: string;
  readonly bytes: number;
  readonly modified: string;
}

function kindOf(group: string, name: string): ArtifactKind {
  if (group.startsWith('validators')) return ArtifactKind.Validator;
  if (name.startsWith('transcript.')) return ArtifactKind.Transcript;
  if (name.startsWith('messages.') || name.endsWith('.record.json')) return ArtifactKind.Checkpoint;
  return name.endsWith('.txt') ? ArtifactKind.ToolResult : ArtifactKind.Other;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await walk(full)));
    else if (e.isFile() && !e.name.endsWith('.tmp')) files.push(full);
  }
  return files;
}

export async function listArtifacts(runDir: string): Promise<ArtifactEntry[]> {
  const out: ArtifactEntry[] = [];
  for (const file of await walk(runDir)) {
    const info = await stat(file);
    const rel = relative(runDir, file).split(sep);
    const name = rel.pop() ?? '';
    const group = rel.join('/');
    out.push({ kind: kindOf(group, name), group, path: file, bytes: info.size, modified: info.mtime.toISOString() });
  }
  return out.sort((a, b) => a.modified.localeCompare(b.modified) || a.path.localeCompare(b.path));
}

/** The run directories of this issue: the agent's one with --agent, else every agent's. */
async function runDirs(artifactsDir: string, repoId: string, issue: number, agent?: string): Promise<string[]> {
  if (agent !== undefined) return [join(artifactsDir, safeSegment(workflowIdFor(repoId, agent, issue)))];
  const prefix = safeSegment(`${repoId}/`);
  const suffix = safeSegment(`/issue-${issue}`);
  const names = await readdir(artifactsDir).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(prefix) && n.endsWith(suffix)).map((n) => join(artifactsDir, n));
}

/** Prints an artifact only when its content matches the sha256 in its name. */
async function showVerified(file: string): Promise<number> {
  const bytes = await readFile(file);
  const result = checkArtifactBytes(basename(file), bytes);
  switch (result.check) {
    case ArtifactCheck.Mismatch:
      printLine(
        process.stderr,
        `warning: ${file} was changed after it was written: its name says sha256 ${result.expected}, its content ` +
          `has sha256 ${result.actual}; not printed (it is not what the run saved)`,
      );
      return SHOW_MISMATCH;
    case ArtifactCheck.Unaddressed:
      printLine(process.stderr, `note: ${file} is a record replaced in place (no sha256 in its name): not verified`);
      break;
    case ArtifactCheck.Verified:
      break;
  }
  process.stdout.write(shownBytes(bytes, process.stdout.isTTY === true));
  return 0;
}

/**
 * What `--show` writes: the saved bytes as they are when piped or redirected; on a terminal,
 * their text with control characters as visible escapes (a tool result or a validator's
 * output is what the repository's code printed, a transcript what the model wrote).
 */
export function shownBytes(bytes: Buffer, terminal: boolean): Buffer | string {
  return terminal ? terminalText(bytes.toString('utf8')) : bytes;
}

export async function artifactsCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('artifacts', argv);
  if (flags === undefined) return 0;
  const issue = requireIssue(flags);
  const repoPath = await localRepositoryOf(flags);
  const repo = await repoIdentity(repoPath);
  const artifactsDir = artifactsDirOf(repo.commonDir);
  const agent = flags['agent'] === undefined ? undefined : (await loadDefinition(flags, { repoPath })).name;
  const dirs = await runDirs(artifactsDir, repo.id, issue, agent);
  const entries = (await Promise.all(dirs.map((d) => listArtifacts(d)))).flat();
  const show = optionalString(flags, 'show');
  if (show !== undefined) {
    const target = isAbsolute(show) ? show : resolve(userCwd(), show);
    const known = entries.find((e) => e.path === target || e.path.endsWith(`${sep}${show}`));
    if (!known)
      throw new AgentError(FailureType.ConfigInvalid, `${show} is not an artifact of issue ${issue} of ${repoPath}`, {
        where: '--show',
        expected: 'a path from `issue-agent artifacts --issue N` (absolute, or its end)',
      });
    return showVerified(known.path);
  }
  if (flags['json']) {
    process.stdout.write(`${JSON.stringify({ artifactsDir, runs: dirs, artifacts: entries })}\n`);
    return 0;
  }
  if (entries.length === 0) {
    printLine(process.stderr, `no saved outputs for issue ${issue} of ${repoPath} under ${artifactsDir}`);
    return 1;
  }
  for (const dir of dirs) printLine(process.stdout, dir);
  for (const e of entries)
    printLine(
      process.stdout,
      `  ${e.modified.slice(0, 19)}  ${e.kind.padEnd(16)} ${String(e.bytes).padStart(8)}  ${e.path}`,
    );
  return 0;
}
