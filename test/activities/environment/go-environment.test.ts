/**
 * The environment phase on a real Go module (one dependency, github.com/google/uuid):
 * `go mod download` into the shared GOMODCACHE and a warm-up build into the
 * repository's shared GOCACHE; the agent's own GOCACHE, seeded from it, makes the first
 * `go test` in the sandbox a cache hit (offline: GOPROXY=off), while the shared caches
 * stay read-only to it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execa } from 'execa';
import {
  assertPassesInSandbox,
  assertReadOnlyInSandbox,
  runInSandbox,
  useEnvironmentProject,
} from './environment-fixtures.js';

const env = useEnvironmentProject(
  {
    'go.mod': 'module example.com/envdemo\n\ngo 1.21\n\nrequire github.com/google/uuid v1.6.0\n',
    'id.go': 'package envdemo\n\nimport "github.com/google/uuid"\n\nfunc NewID() string { return uuid.NewString() }\n',
    'id_test.go':
      'package envdemo\n\nimport "testing"\n\nfunc TestNewID(t *testing.T) {\n\tif len(NewID()) != 36 {\n\t\tt.Fatal("bad id")\n\t}\n}\n',
  },
  {
    lock: async (repo) => {
      await execa('go', ['mod', 'tidy'], { cwd: repo.dir });
    },
    // Go writes its module cache read-only.
    beforeCleanup: async () => {
      await execa('chmod', ['-R', 'u+w', process.env['ISSUE_AGENT_STATE_DIR'] ?? '/nonexistent'], { reject: false });
    },
  },
);

test('go mod download and a warm build cache; go test in the sandbox reuses it; shared caches read-only', async () => {
  const wt = await env.project.worktree();
  const cold = await env.prepare(wt);
  assert.match(cold.detected.join('\n'), /go: go mod download \(go\.mod\)/);
  assert.deepEqual(
    cold.steps.map((s) => [s.command.split(' ').slice(0, 3).join(' '), s.status]),
    [
      ['go mod download', 'ran'],
      ['go test -count=1', 'ran'],
      ['cp -a --reflink=auto', 'ran'],
      ['cp -a --reflink=auto', 'ran'],
    ],
  );
  assert.equal(cold.sandbox.env['GOPROXY'], 'off');
  const goCache = cold.sandbox.env['GOCACHE'] ?? '';
  const run = await assertPassesInSandbox(wt, 'go test ./... && go env GOCACHE', /^ok\s+example\.com\/envdemo/m);
  assert.ok(run.output.includes(goCache), run.output);
  await assertReadOnlyInSandbox(wt, cold.sandbox.env['GOMODCACHE']);
  // The validators' GOCACHE is their own, seeded warm too: the agent cannot forge a `(cached)` result there.
  const validatorCache = cold.sandbox.validators?.env['GOCACHE'] ?? '';
  assert.notEqual(validatorCache, goCache);
  const judged = await runInSandbox(wt, 'go test ./... && go env GOCACHE', { validator: true });
  assert.equal(judged.exitCode, 0, judged.output);
  assert.match(judged.output, /^ok\s+example\.com\/envdemo\s+[\d.]+s$/m, 'not a cached result');
  assert.ok(judged.output.includes(validatorCache), judged.output);
  const reach = await runInSandbox(wt, `touch "${validatorCache}/poison" 2>&1; echo rc=$?`);
  assert.match(reach.output, /rc=1/);

  const second = await env.project.worktree();
  const warm = await env.prepareWarm(second);
  console.log(
    `go setup: cold ${cold.durationMs} ms, warm ${warm.durationMs} ms; ` +
      warm.steps.map((s) => `${s.command.slice(0, 20)} ${s.durationMs} ms`).join(', '),
  );
  const started = Date.now();
  await assertPassesInSandbox(second, 'go test -count=1 ./...');
  console.log(`go test in a second worktree (seeded GOCACHE): ${Date.now() - started} ms`);
});
