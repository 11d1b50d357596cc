/**
 * The preflight's stop: a verdict on the base that no run could get past ends the run as
 * ENVIRONMENT_FAILED before its first model request, saying which command, what was seen
 * and what to configure. Two kinds:
 *
 * - the command cannot run here (not found, behind a wrapper too; a dependency or plugin
 *   missing): no model can install it offline, every closing would fail the same way;
 * - a test command fails on the base and none of its failures can be named: the gate
 *   cannot tell the agent's fix from the failures already there, so every one of them
 *   would count against the agent (three paid closings, then VALIDATION_ABORTED).
 *
 * Tests that cannot load on the base are not a stop: they are named (by file), so the
 * baseline can excuse them. A check (lint, type check) failing on the base is reported.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { PreflightStopKind } from '../../contracts/preflight.js';
import { RepoCommandKey } from '../../contracts/repo-config.js';
import { EnvironmentCause, type PreflightVerdict } from './classify-preflight.js';
import { Remedy } from './could-not-run.js';
import { saysBuildFailed } from './build-failure.js';

type EnvironmentVerdict = Extract<PreflightVerdict, { verdict: 'environment-failure' }>;

const CANNOT_RUN: ReadonlySet<EnvironmentCause> = new Set([
  EnvironmentCause.CouldNotRun,
  EnvironmentCause.Unrecoverable,
  EnvironmentCause.MissingDependency,
]);
const UNNAMED: ReadonlySet<EnvironmentCause> = new Set([EnvironmentCause.UnnamedFailures, EnvironmentCause.Crash]);

/** Whether the verdict ends the run before its first model request. */
export function stopsTheRun(verdict: EnvironmentVerdict): boolean {
  return CANNOT_RUN.has(verdict.cause) || UNNAMED.has(verdict.cause);
}

/** The built-in validators and the `.agent/config.json` command each takes. */
const CONFIG_KEY: Readonly<Record<string, RepoCommandKey>> = {
  tests: RepoCommandKey.Test,
  'type-check': RepoCommandKey.TypeCheck,
  lint: RepoCommandKey.Lint,
  'format-check': RepoCommandKey.Format,
};

const SETUP = '`commands.setup` of .agent/config.json (setup has the network; the preflight and the agent run offline)';
/** This stop is reached only when the model was not let to write the setup: say how it would be. */
const AGENT_SETUP_HINT =
  '; or let the model write the setup and the test command: it does where detection ends unless .agent/config.json sets "environment": {"agentSetup": false}, commands.setup or commands.test (docs/environments/agent-setup.md)';
const NAMED_RUNNERS =
  'node:test, mocha, jest, vitest, uvu, pytest, go test, cargo test, Maven Surefire, CTest, Automake (make check)';

export function preflightStop(
  planned: { readonly validator: string; readonly command: string },
  exitCode: number | null,
  verdict: EnvironmentVerdict,
): AgentError {
  const { command, validator } = planned;
  const key = CONFIG_KEY[validator];
  const setting =
    key === undefined ? `the \`${validator}\` validator's command` : `\`commands.${key}\` in .agent/config.json`;
  const exit = exitCode === null ? '' : `exit ${exitCode}: `;
  const unnamed = UNNAMED.has(verdict.cause);
  const crash = verdict.cause === EnvironmentCause.Crash ? ', its output looks like a crash,' : '';
  const program = verdict.program === undefined ? '' : `: \`${verdict.program}\``;
  // A compile error at the base: no command choice names a test there; the code or build files need the fix.
  const build = unnamed && saysBuildFailed(verdict.lines);
  const why = build ? ': its build fails before any test runs, so' : `${crash} and`;
  const head = unnamed
    ? `\`${command}\` fails on the base commit (exit ${exitCode ?? '-'})${why} none of its failures can be named, so the gate cannot tell the agent's fix from the failures already there and would count every one against it; no model request was made`
    : `the environment cannot run \`${command}\` on the base commit (${exit}${verdict.reason}${program}); no model request was made`;
  const named = `set ${setting} to a command that passes on the base commit, or to one whose failing tests are named (${NAMED_RUNNERS}; docs/registry-reference.md, "Named failures")`;
  const fix = build
    ? `make the base commit build: fix what the lines above name (the code, or build files such as pom.xml, Cargo.toml, go.mod, tsconfig.json) on the branch runs start from, then discard this run's branch and worktree and start the run again; or ${named}`
    : unnamed
      ? named
      : `${remedyText(verdict, setting)}${key === RepoCommandKey.Test ? AGENT_SETUP_HINT : ''}`;
  const shown = verdict.lines.slice(0, 8).map((l) => `  ${l.length > 200 ? `${l.slice(0, 199)}…` : l}`);
  const seen = shown.length > 0 ? shown.join('\n') : '  (no output)';
  return new AgentError(FailureType.EnvironmentFailed, `${head}\n${seen}\nTo fix: ${fix}`, {
    where: key === undefined ? `the agent's \`${validator}\` validator` : `.agent/config.json#/commands/${key}`,
    expected: unnamed
      ? 'a test command that passes on the base or names its failing tests'
      : 'a command that runs in the prepared worktree',
    details: {
      command,
      validator,
      stop: unnamed ? PreflightStopKind.Unnamed : PreflightStopKind.CannotRun,
      ...(exitCode === null ? {} : { exitCode }),
      cause: verdict.cause,
      ...(verdict.remedy === undefined ? {} : { remedy: verdict.remedy }),
      ...(verdict.program === undefined ? {} : { program: verdict.program }),
      lines: [...verdict.lines],
    },
  });
}

function remedyText(verdict: EnvironmentVerdict, setting: string): string {
  const other = `set ${setting} to a command that runs in this repository`;
  if (verdict.cause === EnvironmentCause.MissingDependency)
    return `install the project's dependencies in ${SETUP}; or ${other}`;
  switch (verdict.remedy ?? Remedy.Install) {
    case Remedy.Install: {
      const what = verdict.program === undefined ? 'the missing tool' : `\`${verdict.program}\``;
      return `install ${what} where the run's commands run, in ${SETUP} or on the worker's machine; or ${other}`;
    }
    case Remedy.OtherCommand:
      return other;
    case Remedy.GradleOffline:
      return `the environment phase does not fetch Gradle or a Gradle build's dependencies yet (docs/environments/java-gradle.md), so nothing this command needs is there once the run is offline; ${other}`;
    case Remedy.WorktreeRoot:
      return `put the run's worktree outside any \`.git\` directory, where Jest sees it: leave \`runner.execution.worktree.root\` unset in the agent's registry/agent.json (worktrees then go to the worker's state dir) or set it to a directory outside \`.git\` such as \`.worktrees\`, remove this worktree and its branch (\`git worktree remove --force <worktree>\`, \`git branch -D <branch>\`: their work is lost) and start the run again (docs/environments/node.md, "Jest"); or ${other}`;
    case Remedy.NewerMaven: {
      const version = verdict.program === undefined ? 'a newer version' : `version ${verdict.program}`;
      return `install Maven ${version} on the worker's machine, or commit the project's Maven wrapper (\`mvn wrapper:wrapper\`: ./mvnw, whose Maven the environment phase fetches; docs/environments/java-maven.md); or ${other}`;
    }
    case Remedy.FetchInSetup:
      return `fetch every plugin and dependency it needs in ${SETUP}, e.g. \`mvn -B dependency:go-offline\` and then one \`mvn -B -Dmaven.test.failure.ignore=true test\` there (only a run that reaches the tests fetches Surefire's test provider; docs/environments/java-maven.md); or ${other}`;
  }
}
