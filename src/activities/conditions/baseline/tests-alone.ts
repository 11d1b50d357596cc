/**
 * Did the code fix the tests red on the base, or did the tests' own changes? When the
 * branch changed both, "only test files changed" (fixed-in-tests-only.ts) cannot tell: a
 * comment added to a source file, or any change that does nothing, beside an expected
 * value rewritten in the test, would pass as a fix. So the test command runs once more
 * on this branch's tests with the changed code files put back as on the base
 * (code-at-base.ts): the tests red on the base that pass there too were fixed by the test
 * changes alone. A real fix leaves them red there (the code is wrong there), also when
 * the fix came with a new or adjusted test.
 *
 * The other way round, a wrong change of the code beside a loosened assertion (`== 2`
 * made `> 1.5`): the loosened test fails on the base's code too, so the run above says
 * nothing. So the command also runs with the changed test files put back as on the base
 * and the branch's code: a test red on the base that the branch's code still fails there
 * passes only as the branch rewrote it.
 *
 * Each answer is cached by (repository, base, command, the worktree's whole tree), in the
 * harness state directory as the base's own measure is: a closure judged again on the
 * same tree does not run the tests again. A run that does not end (timeout, cannot start)
 * says nothing: then no test counts as fixed by the tests alone, or failing with the base's.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../../process/command-runner.js';
import { git } from '../../workspace/git/git.js';
import { parseTestFailures } from '../test-reports/parse-test-failures.js';
import { failingNow } from '../test-reports/failing-now.js';
import { runCollectingReports } from '../test-reports/report-files.js';
import { testsSeen } from '../test-reports/tests-seen.js';
import { baselineCacheDir } from './baseline-run.js';
import { withFilesAtBase, worktreeTree } from './code-at-base.js';

export interface TestsAloneRequest {
  readonly commands: CommandRunner;
  readonly worktreePath: string;
  readonly base: string;
  readonly command: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The tests red on the base that pass now. */
  readonly fixed: readonly string[];
  /** The changed files that are not tests (nor documentation): put back as on the base for the run. */
  readonly codeFiles: readonly string[];
  /** Code files with tests inside (Rust): written with the base's code and this branch's tests instead. */
  readonly testsOnBaseCode?: Readonly<Record<string, string>>;
}

/** Those of `fixed` that pass with this branch's tests on the base's code. */
export async function fixedByTestsAlone(request: TestsAloneRequest): Promise<readonly string[]> {
  const run = await swappedRun(request, 'code', request.codeFiles, request.testsOnBaseCode);
  return run === undefined ? [] : request.fixed.filter((name) => run.passed(name));
}

/**
 * Those of `fixed` that this branch's code still fails with the base's version of the
 * tests (`testFiles` as on the base, the code as the branch has it): a fixed test that
 * passes only as the branch rewrote it (`== 2` loosened to `> 1.5`, with a wrong change
 * of the code beside it). A test the base's version of the files does not name is not
 * counted (renamed, moved): only a named failure says the code is still wrong.
 */
export async function failingWithBaseTests(
  request: Omit<TestsAloneRequest, 'codeFiles' | 'testsOnBaseCode'> & { readonly testFiles: readonly string[] },
): Promise<readonly string[]> {
  const run = await swappedRun(request, 'tests', request.testFiles);
  return run === undefined ? [] : request.fixed.filter((name) => run.failed(name));
}

interface SwappedRun {
  passed(name: string): boolean;
  failed(name: string): boolean;
}

/** What a run of the command says with `paths` as on the base; cached by the tree and the swap; undefined when it did not end. */
async function swappedRun(
  request: Omit<TestsAloneRequest, 'fixed' | 'codeFiles' | 'testsOnBaseCode'>,
  swapped: 'code' | 'tests',
  paths: readonly string[],
  contents?: Readonly<Record<string, string>>,
): Promise<SwappedRun | undefined> {
  const tree = await worktreeTree(request.worktreePath);
  const cache = await cacheFileFor(request, tree, swapped, paths);
  const cached = await readCached(cache);
  const seen =
    cached ??
    (await withFilesAtBase(
      {
        worktreePath: request.worktreePath,
        base: request.base,
        tree,
        paths,
        ...(contents === undefined ? {} : { contents }),
      },
      () => testsOfRun(request),
    ));
  if (seen === undefined) return undefined;
  if (cached === undefined) await writeCached(cache, seen);
  const failing = new Set(seen.failed);
  const named = seen.passed === null ? undefined : new Set(seen.passed);
  return {
    // Named passing tests decide; without names, only a run that passed whole says a test passed.
    passed: (name) => (named === undefined ? seen.exitCode === 0 : named.has(name) && !failing.has(name)),
    failed: (name) => failing.has(name),
  };
}

/** The tests a run names passing (null: none named) and failing, and its exit code. */
interface TestsOfRun {
  readonly exitCode: number;
  readonly passed: readonly string[] | null;
  readonly failed: readonly string[];
}

/** Runs the command in the worktree as it is now; undefined when the run did not end. */
async function testsOfRun(request: Omit<TestsAloneRequest, 'fixed' | 'codeFiles'>): Promise<TestsOfRun | undefined> {
  const { outcome, reports } = await runCollectingReports(request.commands, {
    command: request.command,
    cwd: request.worktreePath,
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (outcome.kind !== 'exited') return undefined;
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  const failed = failingNow(parseTestFailures(output, reports), { exitCode: outcome.exitCode, output, reports });
  return {
    exitCode: outcome.exitCode ?? -1,
    passed: testsSeen(output, reports).passed ?? null,
    failed: [...new Set(failed.map((t) => t.name))],
  };
}

async function cacheFileFor(
  request: Pick<TestsAloneRequest, 'worktreePath' | 'base' | 'command'>,
  tree: string,
  swapped: 'code' | 'tests',
  paths: readonly string[],
): Promise<string> {
  const common = await git(request.worktreePath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const key = createHash('sha256')
    .update(['v2', swapped, common.stdout.trim(), request.base, request.command, tree, ...paths].join('\0'))
    .digest('hex');
  return path.join(baselineCacheDir(), 'tests-alone', `${key}.json`);
}

const isNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((n) => typeof n === 'string');

async function readCached(file: string): Promise<TestsOfRun | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { exitCode, passed, failed } = parsed as Record<string, unknown>;
    if (typeof exitCode !== 'number' || !(passed === null || isNames(passed)) || !isNames(failed)) return undefined;
    return { exitCode, passed, failed };
  } catch {
    return undefined;
  }
}

async function writeCached(file: string, seen: TestsOfRun): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(seen), { mode: 0o600 });
  await rename(partial, file);
}
