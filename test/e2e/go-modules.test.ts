/**
 * A Go repository of two modules, as a new user meets it: a root module (listed first,
 * with a test red on main for an unrelated reason) and a nested module `lib` with its own
 * go.mod, the planted bug of shortid-project.ts and its one dependency from the Go proxy
 * (github.com/google/uuid, go.sum committed), on a fresh clone with an empty module cache.
 * The root's `go test ./...` stops at lib's go.mod, so lib's tests would never run: the detected setup
 * downloads and warms each module, the detected test command tests each module to the
 * end, the baseline names both modules' failing tests, and the delivered diff is the fix.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import * as shortid from './shortid-project.js';
import { assertSucceeded } from './run-diagnosis.js';

const LOOP = (command: string) => `rc=0; for m in '.' 'lib'; do (cd "$m" && ${command}) || rc=1; done; exit $rc`;

const lib = shortid.sources('lib');
const FILES = {
  'go.mod': 'module example.com/mono\n\ngo 1.22\n',
  'round.go':
    'package mono\n\nimport "math"\n\n// Round rounds half away from zero.\nfunc Round(x float64) float64 { return math.Round(x) }\n',
  'round_test.go': [
    'package mono',
    '',
    'import "testing"',
    '',
    '// Red on main, unrelated to the issue.',
    'func TestLegacyRounding(t *testing.T) {',
    '\tif got := Round(2.5); got != 2 {',
    '\t\tt.Errorf("Round(2.5) = %v, want 2", got)',
    '\t}',
    '}',
    '',
  ].join('\n'),
  'lib/go.mod': shortid.goMod('example.com/mono/lib'),
  'lib/shortid.go': lib.source,
  'lib/shortid_test.go': lib.tests,
};

const ISSUE = {
  title: 'lib.Short keeps a dash past 8 digits',
  body: 'Short(id, 12) returns "6ba7b810-9da"; it should return "6ba7b8109dad" (TestShortTwelve fails).',
};

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(FILES, (repo) => shortid.tidy(`${repo.dir}/lib`));
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test("a fresh clone: each module downloaded and tested, both modules' failures in the baseline, the fix delivered", async () => {
  const session = fixSession({
    name: 'short id',
    fix: { path: 'lib/shortid.go', old: shortid.BUGGY, new: shortid.RIGHT },
    testCommand: LOOP('go test ./...'),
    unrelated: [{ test: 'TestLegacyRounding', reason: 'math.Round(2.5) is 3; not the Short issue' }],
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['lib/shortid.go']);
  const environment = (run.result?.environment ?? []).join('\n');
  assert.ok(environment.includes(`setup: \`${LOOP('go mod download')}\` ran`), environment);
  assert.match(environment, /preflight: tests: baseline .*TestLegacyRounding/);
  assert.match(environment, /preflight: tests: baseline .*TestShortTwelve/);
});
