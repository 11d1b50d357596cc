/**
 * `npm run validate -- [--agent DIR] [--workflow PATH] [--repo PATH] [--json]`: exit 2
 * listing every problem, or 0 with a summary. Without --workflow it validates the agent
 * and, when `<repo>/.agent/workflow.json` exists, that pipeline too; --workflow alone
 * validates only the pipeline (and the agent directories it names).
 */
import { existsSync } from 'node:fs';
import { defaultWorkflowPath } from '../../definition/pipeline/load-pipeline-definition.js';
import { runValidateWorkflow } from '../../definition/pipeline/validate-workflow.js';
import { runValidate, type ValidateOutcome } from '../../definition/validate-command.js';
import { commandFlags } from '../flags/command-specs.js';
import { agentDirOf, checkAgentDir, resolveUserPath, userCwd } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';

export async function validateCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('validate', argv);
  if (flags === undefined) return 0;
  const outcomes: ValidateOutcome[] = [];
  const workflowFlag = typeof flags['workflow'] === 'string' ? resolveUserPath(flags['workflow']) : undefined;
  if (workflowFlag === undefined || typeof flags['agent'] === 'string') {
    const dir = agentDirOf(flags);
    await checkAgentDir(dir);
    outcomes.push(await runValidate(dir));
  }
  const repo = typeof flags['repo'] === 'string' ? resolveUserPath(flags['repo']) : userCwd();
  const repoWorkflow = defaultWorkflowPath(repo);
  const workflow = workflowFlag ?? (existsSync(repoWorkflow) ? repoWorkflow : undefined);
  if (workflow !== undefined) outcomes.push(await runValidateWorkflow(workflow));
  const exitCode = outcomes.some((o) => o.exitCode !== 0) ? 2 : 0;
  if (flags['json']) {
    const report = { valid: exitCode === 0, reports: outcomes.map((o) => o.report) };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return exitCode;
  }
  for (const { exitCode: code, text } of outcomes) printLine(code === 0 ? process.stdout : process.stderr, text);
  return exitCode;
}
