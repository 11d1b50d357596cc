/**
 * Where detection ends (docs/environments/agent-setup.md), as a new user meets it: a
 * shell project no detector knows (TAP tests run by `sh t/run.sh`, which need a helper
 * that `sh tools/bootstrap.sh` installs into the git-ignored `.deps/`), a planted bug in
 * `lib/calc.sh`, a fresh clone with nothing prepared. The agent's own test command
 * (`npm test --silent`) cannot run there, so the harness's environment.setup step asks the
 * scripted model for a setup and a test command:
 *
 * - a working proposal: the setup runs, the preflight names the red test (`sub`) as the
 *   baseline, the fix is delivered, the commands are offered as `.agent/config.json`;
 *   a second run of the same repository takes them from the cache with no setup request;
 * - a broken one (a setup script that is not there, then a test tool that is not
 *   installed): three proposals, ENVIRONMENT_FAILED naming each, and no work-step model
 *   request (the model server's log holds the environment step's requests only).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const BUGGY = 'sub() { echo $(($1 + $2)); }';
const RIGHT = 'sub() { echo $(($1 - $2)); }';
const SETUP = 'sh tools/bootstrap.sh';
const TEST = 'sh t/run.sh';

const FILES = {
  // No .agent/config.json: the model writes the setup by default.
  'README.md': `# calc.sh\n\nShell arithmetic. Tests: \`${SETUP}\` once, then \`${TEST}\` (TAP).\n`,
  '.gitignore': '.deps/\n',
  'lib/calc.sh': ['# Integer arithmetic for the shell.', 'add() { echo $(($1 + $2)); }', BUGGY, ''].join('\n'),
  'tools/bootstrap.sh': [
    '#!/bin/sh',
    '# Installs the TAP helper the tests source.',
    'set -e',
    'mkdir -p .deps',
    'cp tools/tap.sh.in .deps/tap.sh',
    '',
  ].join('\n'),
  'tools/tap.sh.in': [
    '# A tiny TAP producer: is <got> <want> <name>; finish prints the plan and fails on a failure.',
    'n=0; failed=0',
    'is() {',
    '  n=$((n + 1))',
    '  if [ "$1" = "$2" ]; then echo "ok $n - $3"; return; fi',
    '  failed=$((failed + 1))',
    '  echo "not ok $n - $3"; echo "  ---"; echo "  error: \'expected $2, got $1\'"; echo "  ..."',
    '}',
    'finish() { echo "1..$n"; [ "$failed" -eq 0 ]; }',
    '',
  ].join('\n'),
  't/run.sh': [
    '#!/bin/sh',
    '. ./.deps/tap.sh',
    '. ./lib/calc.sh',
    'is "$(add 2 3)" 5 add',
    'is "$(sub 3 2)" 1 sub',
    'finish',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'sub adds instead of subtracting',
  body: 'sub 3 2 prints 5; it should print 1 (t/run.sh: not ok 2 - sub).',
};

const envRule = (id: string, when: SessionRule['when'], respond: SessionRule['respond']): SessionRule => ({
  id,
  when: { promptContains: 'Step environment.setup', ...when },
  respond,
});

/** The playbook's fix, after an environment step that reads the README and proposes `proposals` by attempt. */
function session(proposals: ReadonlyArray<{ setup: string[]; test: string }>): SessionScript {
  const fix = fixSession({ name: 'calc.sh', fix: { path: 'lib/calc.sh', old: BUGGY, new: RIGHT }, testCommand: TEST });
  const environment = proposals.flatMap((proposal, i) => [
    envRule(
      `env-look-${i + 1}`,
      { turn: 0, promptContains: `attempt ${i + 1} of 3` },
      {
        toolUse: [{ name: 'bash', input: { command: 'cat README.md; ls tools t' } }],
      },
    ),
    envRule(
      `env-answer-${i + 1}`,
      { turn: 1, promptContains: `attempt ${i + 1} of 3` },
      {
        json: { ...proposal, reason: 'a shell project with TAP tests' },
      },
    ),
  ]);
  return { ...fix, rules: [...environment, ...fix.rules] };
}

const requestsOf = (byRule: Readonly<Record<string, number>>, prefix: string): number =>
  Object.entries(byRule)
    .filter(([rule]) => rule.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);

let origin: TempGitRepo | undefined;

before(async () => {
  origin = await makeOrigin(FILES);
});

after(async () => {
  await origin?.cleanup();
  await removeStateDir();
  await teardownEnv();
});

// The two cases are two repositories (the broken one its own origin, nothing cached from the
// other): they run at once.
describe('agent-written setups', { concurrency: 2 }, () => {
  test('a working agent-written setup: the baseline is named, the fix delivered, the commands offered; a second run takes them from the cache', async () => {
    assert.ok(origin);
    const run = await runOnFreshClone({ origin, issue: ISSUE, session: session([{ setup: [SETUP], test: TEST }]) });
    assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
    await assertSucceeded(run);
    assert.deepEqual(await run.changedOnBranch(), ['lib/calc.sh']);
    assert.equal(requestsOf(run.byRule, 'env-'), 2, 'one environment step: a look, then the answer');
    const environment = (run.result?.environment ?? []).join('\n');
    assert.match(environment, /agent setup: `npm test --silent` cannot run here/);
    assert.match(environment, /preflight: tests: baseline .*sub/);
    assert.match(environment, /agent setup: accepted \(attempt 1\)/);
    const snippet = JSON.stringify({ commands: { setup: [SETUP], test: TEST } });
    assert.ok(environment.includes(`put this in .agent/config.json: ${snippet}`), environment);

    const again = await runOnFreshClone({ origin, issue: ISSUE, session: session([{ setup: [SETUP], test: TEST }]) });
    await assertSucceeded(again);
    assert.equal(requestsOf(again.byRule, 'env-'), 0, 'the cached setup: no environment step request');
    assert.match((again.result?.environment ?? []).join('\n'), /accepted \(from the cache/);
  });

  test('a broken agent-written setup: ENVIRONMENT_FAILED naming each proposal, and no work-step model request', async () => {
    assert.ok(origin);
    const broken = [
      { setup: ['sh tools/install-shtest.sh'], test: 'shtest t/' },
      { setup: [], test: 'shtest t/' },
      { setup: [], test: 'shtest --tap t/' },
    ];
    // A new repository (another root commit): nothing cached from the test above.
    const other = await makeOrigin({ ...FILES, 'NOTES.md': 'another repository\n' });
    try {
      const run = await runOnFreshClone({ origin: other, issue: ISSUE, session: session(broken) });
      assert.notEqual(run.cli.code, 0);
      assert.equal(run.result?.code, 'ENVIRONMENT_FAILED', `${run.result?.reason}\n${run.cli.stderr}`);
      const reason = run.result?.reason ?? '';
      assert.match(reason, /3 agent-written setups/);
      assert.match(reason, /1\. setup `sh tools\/install-shtest\.sh`; test `shtest t\/`/);
      assert.match(reason, /3\. setup \(none\); test `shtest --tap t\/`/);
      assert.equal(requestsOf(run.byRule, 'env-'), 6, 'three environment steps of two turns');
      assert.equal(run.modelRequests, 6, `only the environment step asked the model: ${JSON.stringify(run.byRule)}`);
    } finally {
      await other.cleanup();
    }
  });
});
