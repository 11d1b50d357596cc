/**
 * The Node step of the plan: the package manager from the lockfile (pnpm, yarn classic
 * or berry, bun, npm), its exact version from package.json `packageManager`
 * (`pnpm@9.15.0+sha512…`), and the frozen install that puts `node_modules` in the
 * worktree itself (not the user's checkout's, which node would find by walking up).
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { q, readRepoFile as read, type EcosystemStep, type ToolRequest } from './ecosystem.js';

/** Lockfiles and the package manager each belongs to, in the order they are looked for. */
export const NODE_LOCKFILES = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
] as const;

export const DEFAULT_TOOL_VERSIONS = {
  pnpm: '9.15.0',
  yarnClassic: '1.22.22',
  yarnBerry: '4.5.3',
  bun: '1.1.38',
} as const;

export interface NodePlan {
  readonly detected: string;
  /** Absent when there is nothing to install (npm, no dependencies, no install scripts). */
  readonly step?: EcosystemStep;
  readonly tool?: ToolRequest;
  /** `.yarnrc.yml` names a `yarnPath` the checkout lacks (gitignored): yarn must ignore it. */
  readonly ignoreYarnPath?: boolean;
}

/** Yarn's own switch: the `yarnPath` setting is ignored and the yarn on PATH runs. */
export const YARN_IGNORE_PATH = 'YARN_IGNORE_PATH';

/**
 * The `yarnPath` of `.yarnrc.yml` when the file it names is absent: a release kept out of
 * git (`.yarn/releases` ignored) makes every yarn command fail with "The yarnPath setting
 * points to a file that doesn't exist" in a fresh clone, though the fetched yarn of the
 * same major would do.
 */
async function missingYarnPath(dir: string): Promise<string | undefined> {
  const rc = await read(dir, '.yarnrc.yml');
  if (rc === undefined) return undefined;
  let yarnPath: unknown;
  try {
    yarnPath = (parse(rc) as { yarnPath?: unknown } | null)?.yarnPath;
  } catch {
    return undefined; // yarn reports its own configuration error
  }
  if (typeof yarnPath !== 'string' || yarnPath === '') return undefined;
  const present = await access(path.resolve(dir, yarnPath)).then(
    () => true,
    () => false,
  );
  return present ? undefined : yarnPath;
}

/** What makes `npm install` do anything for the root package: dependencies, workspaces, or its own install scripts. */
const NPM_INSTALL_INPUTS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'workspaces',
];
const NPM_INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];

/**
 * True when package.json parses and declares none of them: the install would only cost
 * a node process per run (seconds under concurrency) and produce nothing.
 */
function nothingForNpm(pkg: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(pkg);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null) return false;
  const record = parsed as Record<string, unknown>;
  const nonEmpty = (v: unknown): boolean =>
    v !== undefined && (typeof v !== 'object' || v === null || Object.keys(v).length > 0);
  if (NPM_INSTALL_INPUTS.some((k) => nonEmpty(record[k]))) return false;
  const scripts = record['scripts'];
  if (scripts === undefined) return true;
  if (typeof scripts !== 'object' || scripts === null) return false;
  return !NPM_INSTALL_SCRIPTS.some((k) => k in scripts);
}

const LOCKFILES = NODE_LOCKFILES;

function packageManagerField(pkg: string): { name: string; version?: string } | undefined {
  try {
    const value = (JSON.parse(pkg) as { packageManager?: unknown }).packageManager;
    if (typeof value !== 'string') return undefined;
    const match = /^(@?[^@]+)@([^+\s]+)/.exec(value.trim());
    return match ? { name: match[1] ?? '', version: match[2] ?? '' } : { name: value.trim() };
  } catch {
    return undefined;
  }
}

function toolFor(name: 'pnpm' | 'yarn' | 'bun', asked: string | undefined, berry: boolean): ToolRequest {
  const version =
    asked ??
    (name === 'pnpm'
      ? DEFAULT_TOOL_VERSIONS.pnpm
      : name === 'bun'
        ? DEFAULT_TOOL_VERSIONS.bun
        : berry
          ? DEFAULT_TOOL_VERSIONS.yarnBerry
          : DEFAULT_TOOL_VERSIONS.yarnClassic);
  const pkg = name === 'yarn' && !version.startsWith('1.') ? '@yarnpkg/cli-dist' : name;
  return { name, version, spec: `${pkg}@${version}`, pinned: asked !== undefined, needsScripts: name === 'bun' };
}

export async function detectNode(dir: string, caches: CacheLayout): Promise<NodePlan | undefined> {
  const pkg = await read(dir, 'package.json');
  if (pkg === undefined) return undefined;
  const field = packageManagerField(pkg);
  let lock: (typeof LOCKFILES)[number] | undefined;
  for (const entry of LOCKFILES) if ((await read(dir, entry[0])) !== undefined && lock === undefined) lock = entry;
  const fieldName = field?.name === 'pnpm' || field?.name === 'yarn' || field?.name === 'bun' ? field.name : undefined;
  const pm = lock?.[1] ?? fieldName ?? 'npm';
  const asked = field?.name === pm ? field.version : undefined;
  const why = lock ? lock[0] : `package.json${fieldName ? ` packageManager ${fieldName}` : ''}, no lockfile`;
  const inputs = ['package.json', ...(lock ? [lock[0]] : [])];
  const base = { id: 'node-install', inputs, produces: path.join(dir, 'node_modules'), snapshot: true };
  switch (pm) {
    case 'npm': {
      // With a lockfile, `npm ci` also checks it against package.json: that stays.
      if (!lock && nothingForNpm(pkg))
        return {
          detected: `npm: nothing to install (package.json declares no dependencies, workspaces or install scripts; no lockfile)`,
        };
      const command = lock
        ? 'npm ci --prefer-offline --no-audit --no-fund'
        : 'npm install --prefer-offline --no-audit --no-fund --no-save --no-package-lock';
      const step = { ...base, ecosystem: Ecosystem.Npm, command, reason: `npm: ${command} (${why})` };
      return { detected: step.reason, step: { ...step, caches: [`npm cache ${caches.npm}`] } };
    }
    case 'pnpm': {
      const tool = toolFor('pnpm', asked, false);
      const frozen = lock ? ' --frozen-lockfile' : '';
      const command = `pnpm install${frozen} --prefer-offline --package-import-method=copy --store-dir ${q(caches.pnpmStore)}`;
      const reason = `pnpm ${tool.version}${tool.pinned ? ' (package.json packageManager)' : ' (default version)'}: pnpm install${frozen} (${why})`;
      const step = { ...base, ecosystem: Ecosystem.Pnpm, command, reason, caches: [`pnpm store ${caches.pnpmStore}`] };
      return { detected: reason, step, tool };
    }
    case 'yarn': {
      const berry =
        (asked !== undefined && !asked.startsWith('1.')) || /^__metadata:/m.test((await read(dir, 'yarn.lock')) ?? '');
      const tool = toolFor('yarn', asked, berry);
      const missing = berry ? await missingYarnPath(dir) : undefined;
      const ignorePath = missing === undefined ? '' : `${YARN_IGNORE_PATH}=1 `;
      const command = berry
        ? `${ignorePath}yarn install ${lock ? '--immutable' : '--no-immutable'}` // berry is immutable by default under CI
        : `yarn install${lock ? ' --frozen-lockfile' : ''} --prefer-offline --non-interactive`;
      const absent = missing === undefined ? '' : `; .yarnrc.yml yarnPath ${missing} is not in the repository: ignored`;
      const reason = `yarn ${tool.version} (${berry ? 'berry' : 'classic'}): ${command} (${why}${absent})`;
      const cache = berry ? `yarn global cache ${caches.yarnBerry}` : `yarn cache ${caches.yarnClassic}`;
      // Berry's Plug'n'Play makes no node_modules; both linkers write the install state.
      const produces = berry ? path.join(dir, '.yarn', 'install-state.gz') : base.produces;
      const step = { ...base, produces, ecosystem: Ecosystem.Yarn, command, reason, caches: [cache] };
      return { detected: reason, step, tool, ...(missing === undefined ? {} : { ignoreYarnPath: true }) };
    }
    case 'bun': {
      const tool = toolFor('bun', asked, false);
      const command = `bun install${lock ? ' --frozen-lockfile' : ''}`;
      const reason = `bun ${tool.version}: ${command} (${why})`;
      const step = { ...base, ecosystem: Ecosystem.Bun, command, reason, caches: [`bun cache ${caches.bun}`] };
      return { detected: reason, step, tool };
    }
  }
}
