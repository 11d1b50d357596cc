/**
 * The workflow bundle for tests, built once per content of what it is built from and kept
 * on disk. webpack takes seconds of CPU per build, and every test process that runs a worker
 * paid it, and every worker child a test started (a CLI with --follow, `worker`, the demo)
 * paid it again.
 *
 * The key hashes every file under src/ and prompts/ (path and content), package.json,
 * package-lock.json, tsconfig.json, the node version, this checkout's path and FORMAT. A
 * bundle is only ever read under its own key, and only when its recorded sha-256 matches
 * what is read: a stale or damaged file is rebuilt, never used. Files are written whole
 * (a temp file, then a rename; the record last), so a reader never sees half of one.
 * Entries not used for two hours are removed: a suite reads its bundle for ~25 min, and
 * with sources edited all the time (22 entries of 3 MB in the first hour here) a longer
 * keep fills the disk. When the cache directory cannot be written (a copy owned by someone
 * else), the bundle is built and used without being kept.
 *
 * Run as a script (scripts/run-tests.mjs does, once before the suite), it prints the
 * bundle's path: the runner passes it to every test process and, through them, to the
 * workers they start (ISSUE_AGENT_WORKFLOW_BUNDLE, src/worker/workflow-source.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { WORKFLOWS_PATH } from '../../src/worker/workflow-source.js';

/** Bumped when what is kept, or how, changes: older entries are then never read. */
const FORMAT = 1;
export const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'issue-agent-workflow-bundle');
const UNUSED_FOR_MS = 2 * 3600_000;
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return entry.isFile() ? [path] : [];
    });
}

/** The hash of everything the bundle could be built from. */
export function bundleKey(): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\nnode ${process.version}\nroot ${PROJECT_ROOT}\n`);
  const inputs = [
    ...filesUnder(join(PROJECT_ROOT, 'src')),
    ...filesUnder(join(PROJECT_ROOT, 'prompts')),
    ...['package.json', 'package-lock.json', 'tsconfig.json'].map((name) => join(PROJECT_ROOT, name)),
  ];
  for (const path of inputs) {
    const content = readFileSync(path);
    hash.update(`${relative(PROJECT_ROOT, path)}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex').slice(0, 32);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const pathsOf = (dir: string, key: string) => ({ code: join(dir, `${key}.js`), record: join(dir, `${key}.json`) });

/** The kept bundle of `key` in `dir`, when there is one and it is whole; undefined otherwise. */
export function readKept(dir: string, key: string): { code: string; codePath: string } | undefined {
  const paths = pathsOf(dir, key);
  try {
    const record = JSON.parse(readFileSync(paths.record, 'utf8')) as { sha256?: unknown };
    const code = readFileSync(paths.code, 'utf8');
    if (record.sha256 !== sha256(code)) return undefined;
    const now = new Date();
    for (const path of [paths.code, paths.record]) utimesSync(path, now, now);
    return { code, codePath: paths.code };
  } catch {
    return undefined;
  }
}

function writeAtomically(path: string, content: string): void {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Removes entries (and temp files left by a killed writer) not used for UNUSED_FOR_MS. */
function pruneUnused(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { force: true });
    } catch {
      // another process removed it first
    }
  }
}

/** Keeps `code` under `key` in `dir`; false when `dir` cannot be written. */
export function keep(dir: string, key: string, code: string): boolean {
  const paths = pathsOf(dir, key);
  try {
    mkdirSync(dir, { recursive: true });
    writeAtomically(paths.code, code);
    writeAtomically(paths.record, JSON.stringify({ sha256: sha256(code), builtAt: new Date().toISOString() }));
    pruneUnused(dir);
    return true;
  } catch {
    return false;
  }
}

/** The bundle of today's sources: `code`, and `codePath` when it is kept on disk. */
export async function cachedWorkflowBundle(): Promise<{ code: string; codePath?: string }> {
  const key = bundleKey();
  const kept = readKept(CACHE_DIR, key);
  if (kept) return kept;
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quiet as never });
  return keep(CACHE_DIR, key, code) ? { code, codePath: pathsOf(CACHE_DIR, key).code } : { code };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { codePath } = await cachedWorkflowBundle();
  if (codePath === undefined) {
    process.stderr.write(`workflow bundle: ${CACHE_DIR} cannot be written; each worker bundles its own\n`);
    process.exitCode = 1;
  } else process.stdout.write(`${codePath}\n`);
}
