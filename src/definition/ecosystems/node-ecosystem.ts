/**
 * Node (npm, pnpm, yarn, bun): the package manager from the lockfile, the root `test`
 * script or one that runs every workspace member's to the end (workspace-test-command),
 * typecheck and lint scripts. Its setup (node-setup.ts) is the lockfile's frozen install,
 * with the package manager package.json asks for fetched from the npm registry; a yarn
 * project's sandbox gets yarn berry's global cache read-only and yarn told to stay offline.
 */
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import type { RepoCommands } from '../../contracts/repo-config.js';
import { NPM_PLACEHOLDER_TEST, workspacePatterns, workspaceScripts } from '../repo-config/workspace-scripts.js';
import { workspaceTestCommand } from '../repo-config/workspace-test-command.js';
import {
  EcosystemId,
  MISSING_TOOL,
  readRepoFile as read,
  type DetectedCommands,
  type EcosystemModule,
  type EcosystemSetup,
  type SandboxView,
} from './ecosystem.js';
import { Remedy } from './could-not-run-sign.js';
import { detectNode, NODE_LOCKFILES, YARN_IGNORE_PATH } from './node-setup.js';
import { JEST, VITEST } from './test-runners/jest-vitest.js';
import { MOCHA } from './test-runners/mocha.js';
import { UVU } from './test-runners/uvu.js';
import { NODE_TEST } from './test-runners/node-test.js';

async function packageManager(dir: string): Promise<{ pm: string; lockfile: string } | undefined> {
  for (const [lockfile, pm] of NODE_LOCKFILES) if ((await read(dir, lockfile)) !== undefined) return { pm, lockfile };
  return undefined;
}

function scriptsOf(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, string>) : {};
  } catch {
    return {};
  }
}

async function nodeCommands(dir: string): Promise<DetectedCommands | undefined> {
  const packageJson = await read(dir, 'package.json');
  const scripts = scriptsOf(packageJson);
  const script = scripts['test'];
  const rootTest = typeof script === 'string' && !script.includes(NPM_PLACEHOLDER_TEST) ? script : undefined;
  const found = await packageManager(dir);
  const pm = found?.pm ?? 'npm';
  const why = found ? `${found.lockfile}` : 'package.json, no lockfile';
  const patterns = workspacePatterns(packageJson);
  const members = patterns.length > 0 ? await workspaceScripts(dir, patterns) : undefined;
  const workspace = workspaceTestCommand({
    pm,
    ...(rootTest === undefined ? {} : { rootTest }),
    workspaces: patterns.length > 0,
    ...(members === undefined ? {} : { scripts: members }),
    pnpmWorkspace: (await read(dir, 'pnpm-workspace.yaml')) !== undefined,
    berry: pm === 'yarn' && /^__metadata:/m.test((await read(dir, 'yarn.lock')) ?? ''),
  });
  if (rootTest === undefined && workspace === undefined) return undefined;
  const run = (name: string): string => (pm === 'npm' ? `npm run ${name}` : `${pm} run ${name}`);
  const commands: { -readonly [K in keyof RepoCommands]: string } = {
    test: workspace?.command ?? (pm === 'bun' ? 'bun run test' : `${pm} test`),
  };
  const reasons = [`test: ${commands.test} (${why}${workspace ? `, ${workspace.why}` : ''})`];
  for (const [key, names] of [
    ['typeCheck', ['typecheck', 'type-check', 'tsc']],
    ['lint', ['lint']],
  ] as const) {
    const name = names.find((n) => typeof scripts[n] === 'string');
    if (name === undefined) continue;
    commands[key] = run(name);
    reasons.push(`${key}: ${commands[key]} (package.json script "${name}")`);
  }
  return { commands, reasons };
}

/**
 * yarn in the sandbox (classic or berry): berry's global cache read-only, offline mode;
 * a `yarnPath` the checkout lacks ignored, as setup ignored it.
 */
const yarnView = (caches: CacheLayout, ignoreYarnPath: boolean): SandboxView => ({
  env: {
    YARN_GLOBAL_FOLDER: caches.yarnBerry,
    YARN_ENABLE_OFFLINE_MODE: '1',
    ...(ignoreYarnPath ? { [YARN_IGNORE_PATH]: '1' } : {}),
  },
  readOnlyDirs: [caches.yarnBerry],
});

async function nodeSetup(dir: string, caches: CacheLayout): Promise<EcosystemSetup | undefined> {
  const plan = await detectNode(dir, caches);
  if (plan === undefined) return undefined;
  return {
    detected: plan.detected,
    ecosystem: plan.step?.ecosystem ?? Ecosystem.Npm,
    steps: plan.step === undefined ? [] : [plan.step],
    ...(plan.tool === undefined ? {} : { packageManager: plan.tool }),
    ...(plan.step?.ecosystem === Ecosystem.Yarn ? { sandbox: yarnView(caches, plan.ignoreYarnPath === true) } : {}),
  };
}

export const NODE_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Node,
  docPage: 'node.md',
  setupInputs: [
    'package.json',
    'package-lock.json',
    'npm-shrinkwrap.json',
    'pnpm-lock.yaml',
    'yarn.lock',
    'bun.lockb',
    'bun.lock',
  ],
  setupEnv: (caches) => ({
    npm_config_cache: caches.npm,
    // pnpm 11 reads pnpm_config_*; 9 and 10 get --store-dir on the install command
    // (node-setup.ts). Not npm_config_store_dir: npm 11 warns about it on every command.
    pnpm_config_store_dir: caches.pnpmStore,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    YARN_CACHE_FOLDER: caches.yarnClassic,
    YARN_GLOBAL_FOLDER: caches.yarnBerry,
    YARN_ENABLE_TELEMETRY: '0',
    BUN_INSTALL_CACHE_DIR: caches.bun,
  }),
  registryPointers: ['NPM_CONFIG_REGISTRY', 'npm_config_registry'],
  homeToolchains: [['NVM_DIR', '.nvm']],
  testCommand: nodeCommands,
  setup: nodeSetup,
  couldNotRun: [
    {
      // jest-haste-map ignores every absolute path with a `/.git/` segment: in a worktree
      // under a git dir (an earlier version's default, a root configured there) Jest sees
      // no file at all (verbose: "No files found in <rootDir>"; else "0 files checked").
      match: /^No files found in \S*\/\.git\/|^\s*0 files checked across \d+ projects?\./,
      seen: 'Jest found no file at all: it ignores every path under a `.git` directory, and the worktree is under one',
      remedy: Remedy.WorktreeRoot,
    },
    {
      match: /^npm (?:error|ERR!) (?:enoent )?Could not read package\.json/m,
      seen: 'npm found no package.json here',
      remedy: Remedy.OtherCommand,
    },
    {
      match: /^npm (?:error|ERR!) Missing script: "?[^"\s]+"?/m,
      seen: 'package.json has no such script',
      remedy: Remedy.OtherCommand,
    },
    {
      match: /ERR_PNPM_NO_(?:IMPORTER_MANIFEST_FOUND|PKG_MANIFEST)\b/,
      seen: 'pnpm found no package.json here',
      remedy: Remedy.OtherCommand,
    },
    {
      match: /^error Couldn't find a package\.json file in /m,
      seen: 'yarn found no package.json here',
      remedy: Remedy.OtherCommand,
    },
  ],
  unrecoverable: [
    // pnpm: ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "vitest" not found; yarn 1: error Command "mocha" not found.
    { match: /\bCommand "[^"]+" not found\b/, reason: MISSING_TOOL },
    // yarn berry: Usage Error: command not found: mocha / zsh-style `command not found: x`
    { match: /\bcommand not found: \S+/i, reason: MISSING_TOOL },
    { match: /npx canceled due to missing packages/, reason: MISSING_TOOL },
    {
      match: /could not determine executable to run/,
      reason: 'npx could not find the executable; install the project dependencies or fix the validator command',
    },
    {
      match: /node_modules missing, did you mean to install\?/,
      reason: 'dependencies are not installed (node_modules missing); run the install step',
    },
    { match: /\bMissing script: "?[^"\s]+"?/, reason: 'the package has no such script; fix the validator command' },
  ],
  testRunners: [NODE_TEST, VITEST, JEST, MOCHA, UVU],
};
