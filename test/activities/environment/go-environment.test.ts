/**
 * The environment phase on a real Go module (one dependency, github.com/google/uuid):
 * `go mod download` into the shared GOMODCACHE and a warm-up build into the
 * repository's shared GOCACHE; the agent's own GOCACHE, seeded from it, makes the first
 * `go test` in the sandbox a cache hit (offline: GOPROXY=off), while the shared caches
 * stay read-only to it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execa } from 'execa';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import {
  makeProject,
  removeTempStateDir,
  runInSandbox,
  useTempStateDir,
  type Project,
} from './environment-fixtures.js';

const FILES = {
  'go.mod': 'module example.com/envdemo\n\ngo 1.21\n\nrequire github.com/google/uuid v1.6.0\n',
  'id.go': 'package envdemo\n\nimport "github.com/google/uuid"\n\nfunc NewID() string { return uuid.NewString() }\n',
  'id_test.go':
    'package envdemo\n\nimport "testing"\n\nfunc TestNewID(t *testing.T) {\n\tif len(NewID()) != 36 {\n\t\tt.Fatal("bad id")\n\t}\n}\n',
};

let project: Project;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  project = await makeProject(FILES, async (repo) => {
    await execa('go', ['mod', 'tidy'], { cwd: repo.dir });
  });
});

after(async () => {
  // Go writes its module cache read-only.
  await execa('chmod', ['-R', 'u+w', process.env['ISSUE_AGENT_STATE_DIR'] ?? '/nonexistent'], { reject: false });
  await project.cleanup();
  await removeTempStateDir();
});

test('go mod download and a warm build cache; go test in the sandbox reuses it; shared caches read-only', async () => {
  const wt = await project.worktree();
  const cold = await prepareEnvironment({ worktreePath: wt, repoPath: project.repo.dir });
  assert.match(cold.detected.join('\n'), /go: go mod download \(go\.mod\)/);
  assert.deepEqual(
    cold.steps.map((s) => [s.command.split(' ').slice(0, 3).join(' '), s.status]),
    [
      ['go mod download', 'ran'],
      ['go test -count=1', 'ran'],
      ['cp -a --reflink=auto', 'ran'],
    ],
  );
  assert.equal(cold.sandbox.env['GOPROXY'], 'off');
  const goCache = cold.sandbox.env['GOCACHE'] ?? '';
  const run = await runInSandbox(wt, 'go test ./... && go env GOCACHE');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, /^ok\s+example\.com\/envdemo/m);
  assert.ok(run.output.includes(goCache), run.output);
  const poison = await runInSandbox(wt, `touch "${cold.sandbox.env['GOMODCACHE']}/poison" 2>&1; echo rc=$?`);
  assert.match(poison.output, /rc=1/);

  const second = await project.worktree();
  const warm = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  assert.equal(warm.cached, true, JSON.stringify(warm.steps));
  console.log(
    `go setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms; ` +
      warm.steps.map((s) => `${s.command.slice(0, 20)} ${s.durationMs} ms`).join(', '),
  );
  const started = Date.now();
  const again = await runInSandbox(second, 'go test -count=1 ./...');
  assert.equal(again.exitCode, 0, again.output);
  console.log(`go test in a second worktree (seeded GOCACHE): ${Date.now() - started} ms`);
});
