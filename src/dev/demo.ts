/**
 * `npm run demo`: the main job on embedded defaults, with no keys. A sample git
 * repository with a failing test and a local issue is created in a temp dir; the
 * offline model server plays a recorded session; the local dev server runs the
 * workflow; an in-process worker serves it. The run creates the worktree, the model
 * reads, edits and commits through its tools, the closure step declares `closing`,
 * the validators pass, the boundary hook merges (`--deliver merge`, explicitly) and
 * closes the issue. The run carries RepoId and IssueNumber like a `start-run` run (so
 * `issue-agent status --repo <sample> --issue 1` finds it), and stays readable in the Web
 * UI after the demo exits: a detached reader answers its queries (demo-reader.ts).
 */
import { join } from 'node:path';
import { mkdir, readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import type { RunResult } from '../contracts/run.js';
import { ensureTemporal, STATE_DIR, workflowUrl } from '../host/temporal/ensure-temporal.js';
import { PROJECT_ROOT } from '../host/project-root.js';
import { artifactsDirOf } from '../host/state-paths.js';
import { repoIdentity } from '../host/repo-identity.js';
import { createModelServer } from './model-server/model-server.js';
import { createDefaultDeps } from '../activities/deps.js';
import { runAgentWorkflow } from '../workflows/run-agent.js';
import { progressQuery } from '../workflows/run/messages.js';
import { gitOrThrow } from '../activities/workspace/git/git.js';
import { progressKey, progressLine, resultSummary } from '../host/progress-format.js';
import { reportFatal } from '../host/report-error.js';
import { readRunResult } from '../host/run-result.js';
import { createSampleRepo, DEMO_DIR } from './sample-repo.js';
import { createRunWorker } from '../worker/create-run-worker.js';
import { IssueNumberKey, RepoIdKey } from '../workflows/run/search-attributes.js';
import { spawnDemoReader } from './demo-reader.js';

/** The steps the run went through, e.g. `… → verification.review (escalate) → …`. */
function stepPath(result: RunResult): string {
  const shown = new Set<string | undefined>(['escalate', 'repeat', 'abort']);
  return `steps: ${result.steps.map((s) => (shown.has(s.intent) ? `${s.stepId} (${s.intent})` : s.stepId)).join(' → ')}`;
}

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      'Usage: npm run demo\n\nRuns one issue end to end on embedded defaults: local dev server, sample repository, offline model session. No keys needed.\n',
    );
    return 0;
  }
  const { repoPath, issue } = await createSampleRepo();
  process.stdout.write(`sample repository: ${repoPath} (issue #${issue}: .agent/issues/${issue}.md)\n`);
  const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
  process.stdout.write(`offline model server: ${model.url}\n`);
  const target = await ensureTemporal();
  process.stdout.write(`Temporal: ${target.address}${target.started ? ' (started the local dev server)' : ''}\n`);

  // The demo never talks to a real provider: the worker's model client points at the
  // offline server, and the demo's own task queue keeps outside workers away.
  const { ANTHROPIC_API_KEY: _dropped, ...env } = process.env;
  const deps = createDefaultDeps({ ...env, ANTHROPIC_BASE_URL: model.url });
  const taskQueue = `issue-agent-demo-${process.pid}`;
  const workflowId = `issue-agent-demo-${Date.now()}-issue-${issue}`;
  const { worker, connection: workerConnection } = await createRunWorker({
    address: target.address,
    namespace: target.namespace,
    taskQueue,
    deps,
  });
  const connection = await Connection.connect({ address: target.address });
  const client = new Client({ connection, namespace: target.namespace });
  const url = workflowUrl(target, workflowId);
  const repo = await repoIdentity(repoPath);
  try {
    const handle = await client.workflow.start(runAgentWorkflow, {
      taskQueue,
      workflowId,
      staticSummary: `Demo: issue #${issue} in ${repoPath}`,
      // As start-run sets them: the run is found by repository and issue (find-run.ts).
      typedSearchAttributes: [
        { key: RepoIdKey, value: repo.id },
        { key: IssueNumberKey, value: issue },
      ],
      args: [
        {
          issue,
          agentDir: PROJECT_ROOT,
          repoPath,
          issueSource: 'local',
          // The demo shows the whole job, merge included (the default for local issues is branch).
          delivery: 'merge',
          artifactsDir: artifactsDirOf(repo.commonDir),
        },
      ],
    });
    process.stdout.write(`run ${workflowId}\nWeb UI: ${url}\n`);
    let last = '';
    const follow = setInterval(() => {
      handle.query(progressQuery).then(
        (p) => {
          const key = progressKey(p);
          if (key !== last) process.stdout.write(`  ${progressLine(p)}\n`);
          last = key;
        },
        () => undefined,
      );
    }, 500);
    let result: RunResult;
    try {
      result = await worker.runUntil(readRunResult(handle));
    } finally {
      clearInterval(follow);
    }
    process.stdout.write(`\n${resultSummary(result)}\n${stepPath(result)}\n`);
    const log = await gitOrThrow(repoPath, ['log', '--oneline', '-5', 'main'], 'REPO_NOT_FOUND');
    const issueText = await readFile(join(repoPath, '.agent', 'issues', `${issue}.md`), 'utf8');
    process.stdout.write(
      `\nmain branch now:\n${log}\nissue #${issue} state: ${/state:\s*(\w+)/.exec(issueText)?.[1] ?? '?'}\n`,
    );
    process.stdout.write(`model requests served: ${model.stats().requests}\nWeb UI: ${url}\n`);
    await mkdir(STATE_DIR, { recursive: true });
    const reader = spawnDemoReader(
      { address: target.address, namespace: target.namespace, taskQueue },
      join(STATE_DIR, 'demo-reader.log'),
    );
    process.stdout.write(
      `the run stays readable in the Web UI: its reader (pid ${reader}) answers its queries until the server stops; stop it sooner with: kill ${reader}\n`,
    );
    if (target.started)
      process.stdout.write(
        `the local dev server this demo started keeps running so the Web UI stays up; stop it with: kill ${target.pid ?? '<pid>'}\n`,
      );
    return result.outcome === 'success' ? 0 : 1;
  } finally {
    await connection.close();
    await workerConnection.close();
    await model.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(reportFatal(err)),
);
