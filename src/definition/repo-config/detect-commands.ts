/**
 * Sensible commands for a repository without `.agent/config.json` (or one that leaves
 * them out), from the files it holds: the package manager from the lockfile, CMake with
 * CTest tests, a Makefile test or check target, Autotools (c-build-commands.ts), a Maven
 * pom.xml, a Gradle build, a Hatch env's test script, tox's pytest line, Python test
 * config, go.mod, Cargo.toml. Each choice carries the reason, which the CLI prints, so the
 * user sees what will run and how to change it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoCommands } from '../../contracts/repo-config.js';
import { detectCBuild } from './c-build-commands.js';
import { cargoTestCommand } from './cargo-test-command.js';
import { hatchTestEnv } from './hatch-test-env.js';
import { toxTestEnv } from './tox-test-env.js';
import { goModules, inEveryModule, singleRootModule } from './go-modules.js';
import { gradleLauncher, gradleTestCommand } from './gradle-launcher.js';
import { mavenLauncher, mavenTestCommand } from './maven-launcher.js';
import { NPM_PLACEHOLDER_TEST, workspacePatterns, workspaceScripts } from './workspace-scripts.js';
import { workspaceTestCommand } from './workspace-test-command.js';

export interface DetectedCommands {
  readonly commands: RepoCommands;
  /** One line per chosen command: what and why. */
  readonly reasons: readonly string[];
}

async function read(dir: string, file: string): Promise<string | undefined> {
  return readFile(join(dir, file), 'utf8').catch(() => undefined);
}

/** Lockfiles and the package manager each belongs to, in the order they are looked for. */
export const NODE_LOCKFILES = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
] as const;

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

export async function detectCommands(dir: string): Promise<DetectedCommands> {
  const node = await nodeCommands(dir);
  if (node) return node;
  const c = await detectCBuild(dir);
  if (c !== undefined) return { commands: { test: c.test }, reasons: [`test: ${c.test} (${c.reason})`] };
  const maven = await mavenLauncher(dir);
  if (maven !== undefined) {
    const test = mavenTestCommand(maven);
    return {
      commands: { test },
      reasons: [`test: ${test} (${maven.why}; offline from what setup resolved, every module to the end)`],
    };
  }
  const gradle = await gradleLauncher(dir);
  if (gradle !== undefined) {
    const test = gradleTestCommand(gradle);
    return {
      commands: { test },
      reasons: [`test: ${test} (${gradle.why}; not prepared by setup yet: docs/environments/java-gradle.md)`],
    };
  }
  const hatch = hatchTestEnv((await read(dir, 'pyproject.toml')) ?? '');
  if (hatch?.script !== undefined)
    return {
      commands: { test: hatch.script.command },
      reasons: [
        `test: ${hatch.script.command} (pyproject [tool.hatch.envs.${hatch.env}.scripts] ${hatch.script.name} = "${hatch.script.written}", run without Hatch, in the venv setup made)`,
      ],
    };
  const tox = toxTestEnv((await read(dir, 'tox.ini')) ?? '')?.command;
  if (tox !== undefined)
    return {
      commands: { test: tox.command },
      reasons: [
        `test: ${tox.command} (tox.ini [testenv] commands: ${tox.written}, run without tox, in the venv setup made)`,
      ],
    };
  for (const file of ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py']) {
    if ((await read(dir, file)) !== undefined)
      return { commands: { test: 'pytest' }, reasons: [`test: pytest (${file})`] };
  }
  const go = await goModules(dir);
  if (go !== undefined) {
    const test = inEveryModule(go, 'go test ./...');
    const why = singleRootModule(go)
      ? 'go.mod'
      : `${go.work ? 'go.work uses' : 'go.mod in'} ${go.dirs.join(', ')}: ./... stops at a nested module, so every module runs its own, to the end`;
    return { commands: { test }, reasons: [`test: ${test} (${why})`] };
  }
  const cargo = await read(dir, 'Cargo.toml');
  if (cargo !== undefined) {
    const test = cargoTestCommand(cargo);
    return { commands: { test: test.command }, reasons: [`test: ${test.command} (${test.why})`] };
  }
  return { commands: {}, reasons: [] };
}
