/**
 * The test reports a validator reads back are files the tested code wrote, so they may be
 * symlinks. The reading happens on the host, as the worker: a link followed there reads
 * what the sandbox hides (the worker's home, another repository's reports, `/proc/self/*`
 * of the worker itself), and whatever parses as a test failure goes into the retry prompt.
 * A hostile test command links pytest's JUnit report (its path is in PYTEST_ADDOPTS) and
 * Maven's `target/surefire-reports` to a host-only file and directory holding a canary
 * test name: no canary may come back.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCollectingReports } from '../../../../src/activities/conditions/test-reports/report-files.js';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { createSpawnerCommandRunner } from '../../../../src/activities/process/spawner-command-runner.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const CANARY = 'hostOnlyCanaryTest';
const XML = `<?xml version="1.0"?>\n<testsuite name="demo.Secret" tests="1" failures="1"><testcase classname="demo.Secret" name="${CANARY}"><failure message="${CANARY}">${CANARY}</failure></testcase></testsuite>\n`;

let repo: TempGitRepo | undefined;
let hostOnly = '';
let state = '';
before(async () => {
  state = await realpath(await mkdtemp(path.join(os.tmpdir(), 'report-symlink-state-')));
  process.env['ISSUE_AGENT_STATE_DIR'] = state;
  hostOnly = await realpath(await mkdtemp(path.join(os.tmpdir(), 'report-symlink-host-')));
  repo = await makeTempGitRepo({ files: { 'pom.xml': '<project/>\n' } });
});
after(async () => {
  await repo?.cleanup();
  await rm(hostOnly, { recursive: true, force: true });
  await rm(state, { recursive: true, force: true });
});

test('report files linked out of the sandbox are not read by the host', async () => {
  assert.ok(repo);
  const secretDir = path.join(hostOnly, 'reports');
  await mkdir(secretDir);
  await writeFile(path.join(secretDir, `TEST-demo.Secret.xml`), XML);
  await writeFile(path.join(hostOnly, 'junit.xml'), XML);
  const command = [
    'p=${PYTEST_ADDOPTS#--junitxml=}; p=${p%% *}',
    `ln -sf ${path.join(hostOnly, 'junit.xml')} "$p"`,
    `mkdir -p target && ln -s ${secretDir} target/surefire-reports`,
    'echo linked; exit 1',
  ].join('\n');
  const { outcome, reports } = await runCollectingReports(createSpawnerCommandRunner(), {
    command,
    cwd: repo.dir,
    timeoutMs: 60_000,
  });
  assert.match(outcome.all, /linked/, outcome.all);
  const seen = JSON.stringify(reports) + JSON.stringify(parseTestFailures('', reports));
  assert.equal(seen.includes(CANARY), false, `the host followed a link: ${seen.slice(0, 300)}`);
});
