/**
 * A remote repository for fleet tests: the demo's sample repository with its issue
 * committed (a remote has no untracked files), pushed to a bare repository in a temp
 * dir, named by its `file://` URL. And a worker process with its own host id and state
 * dir, as one machine of a fleet.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { git, gitOrThrow } from '../../../src/activities/workspace/git/git.js';
import { startWorkerProcess } from '../../helpers/worker-process.js';

const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false'];

export async function createRemoteSampleRepo(): Promise<{ url: string; barePath: string; issue: number }> {
  const { repoPath, issue } = await createSampleRepo();
  await gitOrThrow(repoPath, ['add', '-f', join('.agent', 'issues', `${issue}.md`)], 'REPO_NOT_FOUND');
  await gitOrThrow(repoPath, [...IDENTITY, 'commit', '-q', '-m', 'Issue'], 'REPO_NOT_FOUND');
  const barePath = join(await mkdtemp(join(tmpdir(), 'remote-')), 'sample.git');
  await gitOrThrow(repoPath, ['clone', '-q', '--bare', repoPath, barePath], 'REPO_NOT_FOUND');
  return { url: `file://${barePath}`, barePath, issue };
}

/** `refname sha` of every ref of the bare repository under `prefix`. */
export async function remoteRefs(barePath: string, prefix: string): Promise<Map<string, string>> {
  const listed = await git(barePath, ['for-each-ref', '--format=%(refname) %(objectname)', prefix]);
  const refs = new Map<string, string>();
  for (const line of listed.stdout.split('\n').filter((l) => l !== '')) {
    const [ref, sha] = line.split(' ');
    if (ref && sha) refs.set(ref, sha);
  }
  return refs;
}

export interface FleetHost {
  readonly hostId: string;
  readonly stateDir: string;
  process: ChildProcess | undefined;
}

export async function startHost(hostId: string, env: Record<string, string>): Promise<FleetHost> {
  const stateDir = await mkdtemp(join(tmpdir(), `state-${hostId}-`));
  return {
    hostId,
    stateDir,
    process: startWorkerProcess({ ...env, ISSUE_AGENT_HOST_ID: hostId, ISSUE_AGENT_STATE_DIR: stateDir }),
  };
}

export async function killHost(host: FleetHost): Promise<void> {
  const child = host.process;
  if (child === undefined) return;
  host.process = undefined;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
