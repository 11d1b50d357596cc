/**
 * `issue-agent eval [--tasks FILE] [--offline] [--concurrency N] [--json]`: runs the agent
 * over a task file and prints what it solved (src/dev/eval). Exit 0 when the eval ran
 * (whatever it solved): an eval measures, it does not gate.
 */
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { UsageError } from '../../contracts/errors.js';
import { loadTaskFile } from '../../dev/eval/task-file.js';
import { runEval } from '../../dev/eval/run-eval.js';
import { evalTable, evalTotals } from '../../dev/eval/eval-table.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalNumber, optionalString } from '../flags/parse-flags.js';
import { agentDirOf, checkAgentDir, resolveUserPath } from '../run-target.js';
import { ensureTemporal } from '../../host/temporal/ensure-temporal.js';
import { PROJECT_ROOT } from '../../host/project-root.js';
import { installRuntime } from '../../worker/create-run-worker.js';

export async function evalCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('eval', argv);
  if (flags === undefined) return 0;
  const file = loadTaskFile(
    resolveUserPath(optionalString(flags, 'tasks') ?? join(PROJECT_ROOT, 'eval', 'tasks.json')),
  );
  const only = optionalString(flags, 'only')
    ?.split(',')
    .map((s) => s.trim());
  const unknown = only?.find((id) => !file.tasks.some((t) => t.id === id));
  if (unknown !== undefined)
    throw new UsageError(
      `--only names no task "${unknown}"; tasks: ${file.tasks.map((t) => t.id).join(', ')}`,
      '--only',
    );
  const tasks = only === undefined ? file.tasks : file.tasks.filter((t) => only.includes(t.id));
  const concurrency = optionalNumber(flags, 'concurrency', { integer: true }) ?? 2;
  const offline = flags['offline'] === true;
  if (!offline && !process.env.ANTHROPIC_API_KEY && !process.env.ANTHROPIC_BASE_URL)
    throw new UsageError(
      'set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL, or pass --offline to play recorded sessions',
      '--offline',
    );
  const agentDir = agentDirOf(flags);
  await checkAgentDir(agentDir);
  const json = flags['json'] === true;
  const say = (text: string): boolean => (json ? process.stderr : process.stdout).write(`${text}\n`);

  installRuntime();
  const target = await ensureTemporal();
  const connection = await NativeConnection.connect({ address: target.address });
  const clientConnection = await Connection.connect({ address: target.address });
  const started = Date.now();
  try {
    say(`eval ${file.name}: ${tasks.length} task(s), ${concurrency} at once${offline ? ', offline' : ''}`);
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
        env: process.env,
        onTaskDone: (r) => process.stderr.write(`  ${r.task}: ${r.solved ? 'solved' : 'not solved'} (${r.reason})\n`),
      },
    );
    const totals = evalTotals(rows, Date.now() - started);
    if (json) process.stdout.write(`${JSON.stringify({ name: file.name, tasks: rows, totals }, null, 2)}\n`);
    else say(`\n${evalTable(rows, totals)}`);
    return 0;
  } finally {
    await clientConnection.close();
    await connection.close();
  }
}
