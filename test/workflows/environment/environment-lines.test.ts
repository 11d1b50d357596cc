import { test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentLines } from '../../../src/workflows/environment/environment-lines.js';
import { Ecosystem, SetupStepStatus, type EnvironmentReport } from '../../../src/contracts/environment.js';

const step = (command: string) => ({
  ecosystem: Ecosystem.Go,
  command,
  reason: 'go',
  status: SetupStepStatus.Ran,
  cacheHit: true,
  reused: [],
  durationMs: 500,
});

test('two copies into different long dirs print as different lines: a long path keeps its head and its tail', () => {
  const shared = '/tmp/stranger61/state/issue-agent/cache/repositories/bc7a0123456789ab/go/build';
  const sandbox = '/tmp/stranger61/state/issue-agent/sandbox/issue-4-78c8a250f7418147/env';
  const report = {
    version: 1,
    worktreePath: '/w',
    detected: [],
    steps: [
      step(`cp -a --reflink=auto ${shared}/. ${sandbox}/gocache`),
      step(`cp -a --reflink=auto ${shared}/. ${sandbox}/validator-gocache`),
    ],
    cached: false,
    sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [] },
    warnings: [],
    durationMs: 1,
  } satisfies EnvironmentReport;
  const [agent, validators] = environmentLines(report);
  assert.match(agent ?? '', /\/env\/gocache` ran \(0\.5 s, cache warm\)$/);
  assert.match(validators ?? '', /\/env\/validator-gocache` ran/);
  assert.ok((agent ?? '').length < 130, agent);
});

test('a long command is cut at whole words and a long path at whole segments, never mid-word', () => {
  const line = (command: string) =>
    environmentLines({
      version: 1,
      worktreePath: '/w',
      detected: [],
      steps: [step(command)],
      cached: false,
      sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [] },
      warnings: [],
      durationMs: 1,
    })[0] ?? '';
  assert.equal(
    line(
      'mvn -B --fail-at-end -Dmaven.test.failure.ignore=true -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.skip=true test-compile',
    ),
    'setup: `mvn -B --fail-at-end -Dmaven.test.failure.ignore=true -Dsurefire.failIfNoSpecifiedTests=false …` ran (0.5 s, cache warm)',
  );
  assert.equal(
    line('node /tmp/stranger66/xdg/issue-agent/cache/tools/yarn-1.22.22/node_modules/yarn/bin/yarn.js install'),
    'setup: `node /tmp/…/yarn/bin/yarn.js install` ran (0.5 s, cache warm)',
  );
});
