/**
 * The run workflow's bundle, written once into a directory for every run worker a script
 * starts (the bench, chaos) to load. Under the test runner the bundle it already built
 * (ISSUE_AGENT_WORKFLOW_BUNDLE, checked before it is handed on) is used instead.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../../src/worker/create-run-worker.js';

export async function bundleRunWorkflow(dir: string): Promise<string> {
  const prebuilt = process.env.ISSUE_AGENT_WORKFLOW_BUNDLE;
  if (prebuilt !== undefined && existsSync(prebuilt)) return prebuilt;
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never,
  });
  const bundlePath = join(dir, 'workflow-bundle.js');
  await writeFile(bundlePath, code);
  return bundlePath;
}
