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
 * The answer is cached by (repository, base, command, the worktree's whole tree), in the
 * harness state directory as the base's own measure is: a closure judged again on the
 * same tree does not run the tests again. A run that does not end (timeout, cannot start)
 * says nothing: then no test counts as fixed by the tests alone.
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
  const tree = await worktreeTree(request.worktreePath);
  const cache = await cacheFileFor(request, tree);
  const cached = await readCached(cache);
  if (cached !== undefined) return request.fixed.filter((name) => cached.includes(name));
  const passing = await withFilesAtBase(
    {
      worktreePath: request.worktreePath,
      base: request.base,
      tree,
      paths: request.codeFiles,
      ...(request.testsOnBaseCode === undefined ? {} : { contents: request.testsOnBaseCode }),
    },
    () => passingOnBaseCode(request),
  );
  if (passing === undefined) return [];
  const alone = request.fixed.filter((name) => passing(name));
  await writeCached(cache, alone);
  return alone;
}

/** Which tests passed in the run on the base's code; undefined when the run did not end. */
async function passingOnBaseCode(request: TestsAloneRequest): Promise<((name: string) => boolean) | undefined> {
  const { outcome, reports } = await runCollectingReports(request.commands, {
    command: request.command,
    cwd: request.worktreePath,
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (outcome.kind !== 'exited') return undefined;
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  const failed = failingNow(parseTestFailures(output, reports), { exitCode: outcome.exitCode, output, reports });
  const failing = new Set(failed.map((t) => t.name));
  const passed = testsSeen(output, reports).passed;
  const named = passed === undefined ? undefined : new Set(passed);
  // Named passing tests decide; without names, only a run that passed whole says a test passed.
  if (named !== undefined) return (name) => named.has(name) && !failing.has(name);
  return () => outcome.exitCode === 0;
}

async function cacheFileFor(request: TestsAloneRequest, tree: string): Promise<string> {
  const common = await git(request.worktreePath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const key = createHash('sha256')
    .update([common.stdout.trim(), request.base, request.command, tree, ...request.codeFiles].join('\0'))
    .digest('hex');
  return path.join(baselineCacheDir(), 'tests-alone', `${key}.json`);
}

async function readCached(file: string): Promise<readonly string[] | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return Array.isArray(parsed) && parsed.every((n) => typeof n === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function writeCached(file: string, names: readonly string[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(names), { mode: 0o600 });
  await rename(partial, file);
}
