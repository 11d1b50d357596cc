/**
 * `issue-agent init [--repo PATH]`: scaffolds `<repo>/.agent/` for a repository: a
 * config.json with the detected commands (to review and commit) and a copy of the
 * default agent in `.agent/agents/default/` to edit, which config.json names. Refuses
 * to overwrite anything that exists.
 */
import { cp, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { RepoConfigFile } from '../../contracts/repo-config.js';
import { detectCommands } from '../../definition/repo-config/detect-commands.js';
import { REPO_AGENT_DIR, REPO_CONFIG_FILE } from '../../definition/repo-config/read-repo-config.js';
import { git } from '../../activities/workspace/git/git.js';
import { shellQuote } from '../../activities/process/shell-quote.js';
import { commandFlags } from '../flags/command-specs.js';
import { PROJECT_ROOT } from '../../host/project-root.js';
import { localRepositoryOf, REPO_AGENTS_DIR } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';

const DEFAULT_AGENT_NAME = 'default';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function initCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('init', argv);
  if (flags === undefined) return 0;
  const repoPath = await localRepositoryOf(flags);
  const configPath = join(repoPath, REPO_CONFIG_FILE);
  const agentRel = join(REPO_AGENTS_DIR, DEFAULT_AGENT_NAME);
  const agentPath = join(repoPath, agentRel);
  for (const path of [configPath, agentPath]) {
    if (await exists(path))
      throw new AgentError(FailureType.ConfigInvalid, `${path} already exists; init overwrites nothing`, {
        where: path,
        expected: 'edit it, or move it away and run init again',
      });
  }
  const detected = await detectCommands(repoPath);
  const config: RepoConfigFile = {
    commands: detected.commands,
    agent: join('agents', DEFAULT_AGENT_NAME),
  };
  await mkdir(agentPath, { recursive: true });
  for (const dir of ['registry', 'prompts'])
    await cp(join(PROJECT_ROOT, dir), join(agentPath, dir), { recursive: true });
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`, { flag: 'wx' });
  for (const reason of detected.reasons) printLine(process.stderr, `detected ${reason}`);
  if (detected.reasons.length === 0)
    printLine(process.stderr, `no test command detected: set commands.test in ${REPO_CONFIG_FILE}`);
  process.stdout.write(
    [
      `wrote ${configPath}`,
      `copied the default agent to ${agentPath} (edit its registry/ and prompts/; config.json "agent" names it)`,
      `check it with: issue-agent validate --agent ${agentPath}`,
    ].join('\n') + '\n',
  );
  // Left to the user: init writes nothing into the git dir.
  const ignored = await git(repoPath, ['check-ignore', '-q', REPO_CONFIG_FILE]);
  const exclude = (await git(repoPath, ['rev-parse', '--git-path', 'info/exclude'])).stdout.trim();
  if (ignored.exitCode === 1 && exclude !== '')
    process.stdout.write(
      `git does not ignore ${REPO_AGENT_DIR}/: commit it to share the agent, or keep it yours with: echo ${REPO_AGENT_DIR}/ >> ${shellQuote(exclude)} (local issues are then written in place)\n`,
    );
  return 0;
}
