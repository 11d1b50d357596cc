/**
 * What a validator's command leaves in the worktree is not the agent's work. `make test`
 * builds test binaries, coverage tools write reports, interpreters drop caches: left in
 * place they would be "uncommitted changes" to the clean-tree check of this closure, of
 * the next one and to the delivery's own dirty-tree refusal, and the retry prompt would
 * blame the agent for them.
 *
 * So the tree is snapshotted (`git status`) before any validator command runs, and after
 * each command what it added is taken away again: paths that were not in the snapshot
 * (untracked ones removed with `git clean`, tracked ones it changed restored from HEAD).
 * Only paths absent from the snapshot are ever touched, so nothing the agent left is
 * removed or hidden: its own uncommitted files stay and stay visible. (A command that
 * deletes or reverts the agent's uncommitted files cannot hide them either: the
 * clean-tree check reads the tree before any command runs, see run-validators.ts.)
 *
 * Ignored files (.gitignore) are not in `git status` and are left alone. The git calls go
 * through the harness runner, so in an agent's worktree they run in its sandbox.
 */
import type { ConditionRef, ValidatorDefinition } from '../../contracts/definition.js';
import { git } from '../workspace/git/git.js';
import { substituteParams } from './substitute-params.js';

export interface TreeSnapshot {
  /** Status entries by path (`-z` porcelain v1: `XY`), untracked directories collapsed. */
  readonly entries: ReadonlyMap<string, string>;
}

export interface ValidatorOutputs {
  /** Untracked paths (files or collapsed directories) that appeared. */
  readonly untracked: readonly string[];
  /** Tracked paths that were clean in the snapshot and are changed now. */
  readonly tracked: readonly string[];
}

const STATUS = ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=all'];
/** Pathspecs are file names here, never patterns (a file may be called `*` or `:(top)`). */
const LITERAL = '--literal-pathspecs';
const CHUNK = 200;

/**
 * A clean-tree check: a command validator that runs `git status` (the built-in `git-clean`,
 * upstream's too). It judges the tree the agent left, so it runs before every other
 * condition of the closure, whatever its declared position: no validator command can have
 * added, deleted or reverted anything yet. PURE.
 */
export function isCleanTreeCheck(definition: ValidatorDefinition | undefined, condition: ConditionRef): boolean {
  return (
    definition?.type === 'command' &&
    /^\s*git\s+status(\s|$)/.test(substituteParams(definition.command, condition.params))
  );
}

/** Indices of `conditions` in the order they run: clean-tree checks first, the rest as declared. PURE. */
export function cleanTreeFirst(
  conditions: readonly ConditionRef[],
  validators: Readonly<Record<string, ValidatorDefinition>>,
): number[] {
  const indices = conditions.map((_, i) => i);
  const first = (i: number): boolean => isCleanTreeCheck(validators[conditions[i]!.validator], conditions[i]!);
  return [...indices.filter(first), ...indices.filter((i) => !first(i))];
}

/** Parses `git status --porcelain=v1 -z`: `XY path\0`, a rename or copy followed by `orig\0`. PURE. */
export function parseStatusZ(output: string): Map<string, string> {
  const entries = new Map<string, string>();
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? '';
    if (field.length < 4) continue;
    const xy = field.slice(0, 2);
    entries.set(field.slice(3), xy);
    if (xy[0] === 'R' || xy[0] === 'C') i++;
  }
  return entries;
}

/** The worktree's status, or undefined when git cannot tell (not a work tree): then nothing is guarded. */
export async function snapshotTree(worktreePath: string): Promise<TreeSnapshot | undefined> {
  const status = await git(worktreePath, STATUS);
  return status.exitCode === 0 ? { entries: parseStatusZ(status.stdout) } : undefined;
}

/** What appeared since `before`: only paths the snapshot did not have. PURE. */
export function outputsSince(before: TreeSnapshot, after: TreeSnapshot): ValidatorOutputs {
  const untracked: string[] = [];
  const tracked: string[] = [];
  for (const [path, xy] of after.entries) {
    if (before.entries.has(path)) continue;
    (xy === '??' ? untracked : tracked).push(path);
  }
  return { untracked, tracked };
}

/**
 * Takes away what validator commands added since `before`; returns what it took away.
 * Best effort: a path git refuses to clean (a nested repository) stays, and is then
 * reported by the clean-tree check of a later closure as any other path would be.
 */
export async function removeValidatorOutputs(worktreePath: string, before: TreeSnapshot): Promise<ValidatorOutputs> {
  const now = await snapshotTree(worktreePath);
  if (now === undefined) return { untracked: [], tracked: [] };
  const outputs = outputsSince(before, now);
  await eachChunk(outputs.untracked, (paths) =>
    git(worktreePath, [LITERAL, 'clean', '-f', '-d', '-q', '--', ...paths]),
  );
  await eachChunk(outputs.tracked, (paths) =>
    git(worktreePath, [LITERAL, 'restore', '--source=HEAD', '--staged', '--worktree', '--', ...paths]),
  );
  return outputs;
}

/** Runs `call` per chunk of paths; a chunk git refuses is retried path by path, so one odd path spares the rest. */
async function eachChunk(
  paths: readonly string[],
  call: (paths: readonly string[]) => Promise<{ readonly exitCode: number }>,
): Promise<void> {
  for (const chunk of chunks(paths)) {
    if ((await call(chunk)).exitCode === 0 || chunk.length === 1) continue;
    for (const path of chunk) await call([path]);
  }
}

function chunks(paths: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < paths.length; i += CHUNK) out.push(paths.slice(i, i + CHUNK));
  return out;
}
