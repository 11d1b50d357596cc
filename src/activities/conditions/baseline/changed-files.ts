/**
 * What a branch changed against its base, told apart as tests and code: the files the
 * judgement of "fixed" turns on (fixed-in-tests-only.ts, tests-alone.ts). Documentation is
 * neither (a README edit fixes no test). Untracked files count: a fix may sit in a new file
 * not yet committed, and leaving it out would take a real fix for a test-only one.
 *
 * A Rust source file whose changes are inside its test items (`#[cfg(test)] mod tests`,
 * `#[test] fn`) is a test file here (rust-test-items.ts): those tests live beside the
 * code, and rewriting their expected values is a change of the tests. Changed in its code
 * too, it is both, and the run on the base's code gets the file with the base's code and
 * this branch's tests.
 */
import { git } from '../../workspace/git/git.js';
import { filesTouchedSince } from '../base-commit.js';
import { isTestFile } from '../integrity/weakening-rules.js';
import { rustChange, type RustChange } from './rust-test-items.js';

// Not `.txt`: CMakeLists.txt and requirements.txt are build files, and a fix may be there.
const DOCUMENTATION = /(^|\/)docs?\/|\.(md|markdown|rst|adoc)$|(^|\/)(CHANGELOG|CHANGES|NEWS|AUTHORS)[^/]*$/i;

/** Documentation by its path: neither a test nor code. PURE. */
export function isDocumentation(path: string): boolean {
  return DOCUMENTATION.test(path);
}

export interface ChangedFiles {
  readonly tests: readonly string[];
  readonly code: readonly string[];
  /** Files in both lists: their base's code with this branch's tests, for the run on the base's code. */
  readonly testsOnBaseCode?: Readonly<Record<string, string>>;
}

/** Undefined when git cannot tell. */
export async function changedFiles(worktreePath: string, base: string): Promise<ChangedFiles | undefined> {
  const tracked = await filesTouchedSince(worktreePath, base);
  const untracked = await git(worktreePath, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (tracked === undefined || untracked.exitCode !== 0) return undefined;
  const touched = [...new Set([...tracked, ...untracked.stdout.split('\0').filter((p) => p !== '')])];
  const tests: string[] = [];
  const code: string[] = [];
  const spliced: Record<string, string> = {};
  for (const file of touched) {
    if (isDocumentation(file)) continue;
    if (isTestFile(file) || !file.endsWith('.rs')) {
      (isTestFile(file) ? tests : code).push(file);
      continue;
    }
    const change = await rustFileChange(worktreePath, base, file);
    if (change.tests) tests.push(file);
    if (change.code || !change.tests) code.push(file);
    if (change.testsOnBaseCode !== undefined) spliced[file] = change.testsOnBaseCode;
  }
  return {
    tests,
    code,
    ...(Object.keys(spliced).length === 0 ? {} : { testsOnBaseCode: spliced }),
  };
}

/** The whole file in one hunk, so the scanner sees both texts. */
async function rustFileChange(worktreePath: string, base: string, file: string): Promise<RustChange> {
  const diff = await git(worktreePath, [
    '--literal-pathspecs',
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '-U1000000',
    base,
    '--',
    file,
  ]);
  // An untracked file has no diff against the base: all of it is new.
  const text = diff.exitCode === 0 && diff.stdout !== '' ? diff.stdout : await untrackedAsDiff(worktreePath, file);
  return text === undefined ? { tests: false, code: true } : rustChange(text);
}

async function untrackedAsDiff(worktreePath: string, file: string): Promise<string | undefined> {
  const diff = await git(worktreePath, ['diff', '--no-index', '--no-ext-diff', '-U1000000', '--', '/dev/null', file]);
  // `--no-index` exits 1 when the files differ, as they do here.
  return diff.exitCode <= 1 && diff.stdout !== '' ? diff.stdout : undefined;
}

/** Those of `paths` the base commit has: a test file the branch changed, not one it added. */
export async function presentOnBase(worktreePath: string, base: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const listed = await git(worktreePath, [
    '--literal-pathspecs',
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    base,
    '--',
    ...paths,
  ]);
  if (listed.exitCode !== 0) return [...paths];
  const onBase = new Set(listed.stdout.split('\0').filter((p) => p !== ''));
  return paths.filter((p) => onBase.has(p));
}
