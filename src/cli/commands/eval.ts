/**
 * `issue-agent eval [--tasks FILE] [--oracle|--no-op|--sabotage|--offline] [--concurrency N] [--json]`:
 * runs the agent over a task file (ours or SWE-bench JSONL) and prints what it delivered
 * and solved (src/dev/eval); with a gate mode, how the gate judged a scripted model.
 * `--mine REPO` builds tasks instead (eval-mine.ts). Exit 0 when the eval ran (whatever
 * it measured): an eval measures, it does not gate.
 */
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { UsageError } from '../../contracts/errors.js';
import { loadTaskFile, selectTasks } from '../../dev/eval/task-file.js';
import { runEval } from '../../dev/eval/run-eval.js';
import { evalTable, evalTotals } from '../../dev/eval/eval-table.js';
import { GateMode } from '../../dev/eval/gate/gate-sessions.js';
import { parseRepoMap } from '../../dev/eval/swe-tasks.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalNumber, optionalString } from '../flags/parse-flags.js';
import { agentDirOf, checkAgentDir, resolveUserPath } from '../run-target.js';
import { ensureTemporal } from '../../host/temporal/ensure-temporal.js';
import { PROJECT_ROOT } from '../../host/project-root.js';
import { installRuntime } from '../../worker/create-run-worker.js';
import { mineCommand } from './eval-mine.js';
import { printLine } from '../../host/terminal-text.js';

export async function evalCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('eval', argv);
  if (flags === undefined) return 0;
  if (flags['mine'] !== undefined) return mineCommand(flags);
  for (const name of ['limit', 'scan', 'test-command', 'out'])
    if (flags[name] !== undefined) throw new UsageError(`--${name} goes with --mine`, `--${name}`);
  const reposDir = optionalString(flags, 'repos');
  const repoMap = optionalString(flags, 'repo-map');
  const file = loadTaskFile(
    resolveUserPath(optionalString(flags, 'tasks') ?? join(PROJECT_ROOT, 'eval', 'tasks.json')),
    {
      ...(reposDir === undefined ? {} : { reposDir: resolveUserPath(reposDir) }),
      ...(repoMap === undefined ? {} : { repoMap: parseRepoMap(repoMap) }),
    },
  );
  const tasks = selectTasks(file.tasks, optionalString(flags, 'only'));
  const concurrency = optionalNumber(flags, 'concurrency', { integer: true }) ?? 2;
  const modes = Object.values(GateMode).filter((m) => flags[m] === true);
  if (modes.length > 0 && !tasks.some((t) => t.swe !== undefined))
    throw new UsageError(
      `--${modes[0]} measures the gate on SWE-bench tasks (a gold patch and test names): pass --tasks with a JSONL file (eval --mine builds one)`,
      `--${modes[0]}`,
    );
  const offline = flags['offline'] === true;
  if (modes.length === 0 && !offline && !process.env.ANTHROPIC_API_KEY && !process.env.ANTHROPIC_BASE_URL)
    throw new UsageError(
      'set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL, pass --offline to play recorded sessions, or measure the gate with --oracle, --no-op or --sabotage',
      '--offline',
    );
  const agentDir = agentDirOf(flags);
  await checkAgentDir(agentDir);
  const json = flags['json'] === true;
  const say = (text: string): boolean => printLine(json ? process.stderr : process.stdout, text);

  installRuntime();
  const target = await ensureTemporal();
  const connection = await NativeConnection.connect({ address: target.address });
  const clientConnection = await Connection.connect({ address: target.address });
  const started = Date.now();
  try {
    const how = modes.length > 0 ? `, modes ${modes.join(', ')}` : offline ? ', offline' : '';
    say(`eval ${file.name}: ${tasks.length} task(s), ${concurrency} at once${how}`);
    const rows = await runEval(
      { name: file.name, tasks },
      {
        client: new Client({ connection: clientConnection, namespace: target.namespace }),
        connection,
        namespace: target.namespace,
        agentDir,
        artifactsDir: resolve(PROJECT_ROOT, '.artifacts'),
        concurrency,
        offline,
        modes,
        env: process.env,
        onTaskDone: (r) =>
          printLine(
            process.stderr,
            `  ${r.task} ${r.mode}: ${r.invalid ? 'invalid' : r.delivered ? 'delivered' : 'refused'}${r.delivered ? (r.solved ? ', solved' : ', not solved') : ''} (${(r.invalidReason ?? r.reason).replace(/\s+/g, ' ').slice(0, 200)})`,
          ),
      },
    );
    const totals = evalTotals(rows, Date.now() - started);
    // With --json the table still reaches a reader, on stderr beside the progress lines.
    if (json) process.stdout.write(`${JSON.stringify({ name: file.name, tasks: rows, totals }, null, 2)}\n`);
    say(`\n${evalTable(rows, totals)}`);
    return 0;
  } finally {
    await clientConnection.close();
    await connection.close();
  }
}
