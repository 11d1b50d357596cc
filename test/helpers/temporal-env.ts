/**
 * The real Temporal dev server for tests: TestWorkflowEnvironment.createLocal on the
 * project's own CLI binary (never the download path), with our search attributes,
 * and the workflow bundle, read once per test process from the bundles kept by content
 * (workflow-bundle-cache.ts: built only when the sources changed).
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import { resolveTemporalCliPath } from '../../src/host/temporal/temporal-cli.js';
import { RUN_SEARCH_ATTRIBUTES } from '../../src/workflows/run/search-attributes.js';
import { PIPELINE_SEARCH_ATTRIBUTES } from '../../src/workflows/pipeline/pipeline-search-attributes.js';
import { cachedWorkflowBundle } from './workflow-bundle-cache.js';

/**
 * The Temporal CLI: the one scripts/run-tests.mjs resolved for the whole suite, else
 * resolved here (a file run on its own).
 */
export function temporalCliPath(): string {
  return process.env['ISSUE_AGENT_TEST_DEV_SERVER_CLI'] || resolveTemporalCliPath();
}

let envPromise: Promise<TestWorkflowEnvironment> | undefined;
let bundlePromise: Promise<WorkflowBundle> | undefined;

export function testEnv(): Promise<TestWorkflowEnvironment> {
  envPromise ??= TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalCliPath() },
      searchAttributes: [...RUN_SEARCH_ATTRIBUTES, ...PIPELINE_SEARCH_ATTRIBUTES],
      log: { format: 'pretty', level: 'error' },
    },
  });
  return envPromise;
}

/**
 * A dev server like a user's own: none of our search attributes registered (the
 * project's check must register them). Not shared: the caller tears it down.
 */
export function bareTestEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalCliPath() },
      log: { format: 'pretty', level: 'error' },
    },
  });
}

export function workflowBundle(): Promise<WorkflowBundle> {
  bundlePromise ??= cachedWorkflowBundle().then(({ code }) => ({ code }));
  return bundlePromise;
}

export async function teardownEnv(): Promise<void> {
  if (envPromise) await (await envPromise).teardown();
  envPromise = undefined;
}

/** The frontend address of the test server (for worker processes we spawn). */
export function serverAddress(env: TestWorkflowEnvironment): string {
  const options = (env.connection as unknown as { options: { address: string } }).options;
  return options.address;
}
