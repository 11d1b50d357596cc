// The suite's compiled mirror of the checkout (issue 39): every file of src/, test/ and
// scripts/ copied into `.test-build/`, each .ts with its .js compiled beside it by esbuild
// (types stripped, one file per module, no bundling, a source map beside it: run with
// --enable-source-maps, a failure's location and stack name the .ts lines), the other small top-level entries
// (registry, prompts, demo, package.json, …) copied, and the large or stateful ones
// (node_modules, .git, .tools, .temporal, dist) symlinks to the originals. Copied, not
// linked, wherever a test may copy and then edit: fs.cp turns a relative symlink into an
// absolute one, and a test editing its "copy" of a linked registry/ edited the checkout's.
//
// Each run builds its own tree, `.test-build/run-<pid>/`, removed when it ends (and, if it
// could not be, by the next run once its pid is gone): two runs at once in one checkout
// never share one.
//
// Why: a test file run under tsx pays for tsx's loader in its own process (a hooks thread
// that every import of the file and of its dependencies goes through): measured on 46
// files of test/activities, 77 s of CPU under tsx against 35 s compiled. Each test file
// runs in a process of its own, so that is paid ~380 times a suite.
//
// Paths stay what the tests expect: PROJECT_ROOT (two folders above src/host/) is the
// run's tree, with its copies of registry/, prompts/ and package.json and its links to
// .tools and .git; a test that spawns `node --import tsx some/file.ts` finds the .ts beside
// its .js. Rebuilt whole on every run: esbuild compiles the ~1 900 files in ~2 s.
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

export const TEST_BUILD_DIR = '.test-build';

/** The folders copied and compiled. */
const COMPILED = new Set(['src', 'test', 'scripts']);
/** Linked: too large to copy each run, or state that lives in the checkout. The rest is copied. */
const LINKED = new Set(['node_modules', '.git', '.tools', '.temporal', '.artifacts', 'dist']);

/** Copies `dir` (relative to root) into out, returning the .ts files it holds. */
function copyTree(root, out, dir) {
  mkdirSync(join(out, dir), { recursive: true });
  const ts = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ts.push(...copyTree(root, out, path));
    else if (entry.isFile()) {
      copyFileSync(join(root, path), join(out, path));
      if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) ts.push(path);
    }
  }
  return ts;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
};

/** Removes the trees of runs whose process is gone. */
function removeStaleTrees(root) {
  let entries;
  try {
    entries = readdirSync(join(root, TEST_BUILD_DIR));
  } catch {
    return; // no tree yet
  }
  for (const name of entries) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    if (pid === undefined || !alive(Number(pid)))
      rmSync(join(root, TEST_BUILD_DIR, name), { recursive: true, force: true });
  }
}

/** Builds this process's tree under `<root>/.test-build` and returns its path. */
export async function buildCompiledTestTree(root) {
  removeStaleTrees(root);
  const out = join(root, TEST_BUILD_DIR, `run-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const sources = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.name === TEST_BUILD_DIR) continue;
    if (entry.isDirectory() && COMPILED.has(entry.name)) sources.push(...copyTree(root, out, entry.name));
    else if (LINKED.has(entry.name)) symlinkSync(relative(out, join(root, entry.name)), join(out, entry.name));
    else cpSync(join(root, entry.name), join(out, entry.name), { recursive: true, verbatimSymlinks: true });
  }
  await build({
    entryPoints: sources.map((path) => join(root, path)),
    outdir: out,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    sourcemap: 'linked',
    logLevel: 'error',
  });
  return out;
}

/** Removes a tree buildCompiledTestTree made. */
export function removeCompiledTestTree(tree) {
  rmSync(tree, { recursive: true, force: true });
}
