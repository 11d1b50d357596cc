/**
 * The client CLI and the worker entry as one JavaScript bundle for the tests that spawn them,
 * built once per content of src/ and kept on disk (issue 39, suite time). A child started as
 * `node --import tsx src/client.ts` pays tsx's loader and a hook call per module for each
 * of the ~1 100 modules it loads: on this 2-core machine 1.1-1.6 s of CPU for `validate
 * --bogus`, 3.8-4.8 s for `start-run --issue abc`; the same commands from this bundle took
 * 0.28 s and 2.3 s (measured side by side), and the CLI tests start ~150 such children.
 *
 * Built with esbuild straight from src/ as `npm run build` bundles dist/ (scripts/
 * bundle-cli.mjs): ESM, split at every dynamic import (a command still loads only what it
 * uses), Temporal's packages and what they load left as packages. `import.meta.url` in a
 * module of src/ is replaced with that module's own file URL, so what is found relative to a
 * module (the project root, the workflow sources, prompt templates) is the same as under tsx,
 * and the worker's workflow source stays the TypeScript one (src/worker/workflow-source.ts
 * sees `.ts`: ISSUE_AGENT_WORKFLOW_BUNDLE applies as under tsx). The bundle lives under
 * node_modules/ so those packages resolve from it.
 *
 * Kept under the key of test/helpers/workflow-bundle-cache.ts (every file under src/ and
 * prompts/, the package files, node's version, the checkout's path) and FORMAT; written to a
 * temp directory and renamed into place whole; entries unused for two hours are removed.
 * Run as a script (scripts/run-tests.mjs does, once before the suite), it prints the
 * bundle's directory, passed to the test processes as ISSUE_AGENT_TEST_CLI_BUNDLE;
 * test/cli/cli-process.ts spawns the bundle when it is set, `tsx src/client.ts` otherwise (a
 * test file run on its own). Like the workflow bundle, it is the sources as they were when
 * the suite started.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { bundleKey } from './workflow-bundle-cache.js';

/** Bumped when what is built, or how, changes: older entries are then never read. */
const FORMAT = 1;
export const CLI_CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'issue-agent-cli-bundle');
const UNUSED_FOR_MS = 2 * 3600_000;
const SRC = join(PROJECT_ROOT, 'src');

/** The bundle's entry for `issue-agent <command>` in a kept bundle directory (test/cli/cli-process.ts names it too). */
export const cliEntry = (dir: string): string => join(dir, 'client.mjs');

/** Each module of src/ keeps its own URL (esbuild would otherwise give every module the bundle's). */
const moduleUrls: Plugin = {
  name: 'module-urls',
  setup(b) {
    // .js too: in the suite's compiled tree (scripts/compiled-test-tree.mjs) an import of
    // `./x.js` finds the compiled x.js beside x.ts.
    b.onLoad({ filter: /\.[jt]s$/ }, async (args) => {
      if (!args.path.startsWith(`${SRC}/`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const own = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replaceAll('import.meta.url', own), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

async function buildInto(dir: string): Promise<void> {
  await build({
    entryPoints: [join(SRC, 'client.ts'), join(SRC, 'worker.ts')],
    outdir: dir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'bundle',
    external: ['@temporalio/*', '@grpc/*', 'protobufjs', 'protobufjs/*', 'long'],
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
    },
    tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
    plugins: [moduleUrls],
    logLevel: 'error',
  });
}

/** Removes entries (and temp directories left by a killed builder) not used for UNUSED_FOR_MS. */
function pruneUnused(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

/** The kept bundle directory of today's sources, built when there is none; undefined when it cannot be kept. */
export async function cachedCliBundle(): Promise<string | undefined> {
  const key = `${bundleKey()}-${FORMAT}`;
  const dir = join(CLI_CACHE_DIR, key);
  if (existsSync(cliEntry(dir))) {
    const now = new Date();
    utimesSync(dir, now, now);
    return dir;
  }
  const temp = join(CLI_CACHE_DIR, `${key}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    mkdirSync(CLI_CACHE_DIR, { recursive: true });
    await buildInto(temp);
    try {
      renameSync(temp, dir);
    } catch (err) {
      // Another builder put the same key in place first: theirs is as good.
      if (!existsSync(cliEntry(dir))) throw err;
    }
    pruneUnused(CLI_CACHE_DIR);
    return dir;
  } catch {
    return undefined;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await cachedCliBundle();
  if (dir === undefined) {
    process.stderr.write(
      `cli bundle: not built or ${CLI_CACHE_DIR} cannot be written; the CLI tests run it under tsx\n`,
    );
    process.exitCode = 1;
  } else process.stdout.write(`${dir}\n`);
}
