import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeSegment } from '../../src/activities/artifacts/artifact-store.js';
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';
import { makeTempGitRepo } from '../helpers/temp-git-repo.js';
import { assertNoStack, DEAD_ADDRESS, describeResult, runCli } from './cli-process.js';

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };

test('init scaffolds .agent/ with detected commands and an editable copy of the default agent, then refuses to overwrite', async () => {
  const repo = await makeTempGitRepo({
    files: { 'package.json': JSON.stringify({ scripts: { test: 'vitest', lint: 'eslint .' } }), 'pnpm-lock.yaml': '' },
  });
  try {
    const first = await runCli(['init', '--repo', repo.dir], { env });
    assert.equal(first.code, 0, describeResult(first));
    const config = JSON.parse(await readFile(join(repo.dir, '.agent', 'config.json'), 'utf8')) as unknown;
    assert.deepEqual(config, { commands: { test: 'pnpm test', lint: 'pnpm run lint' }, agent: 'agents/default' });
    assert.match(first.stderr, /detected test: pnpm test \(pnpm-lock\.yaml\)/);
    const copy = join(repo.dir, '.agent', 'agents', 'default');
    assert.ok(existsSync(join(copy, 'registry', 'agent.json')));
    assert.ok(existsSync(join(copy, 'prompts', 'system.md')));
    const validate = await runCli(['validate', '--agent', copy], { env });
    assert.equal(validate.code, 0, describeResult(validate));
    // Not ignored: init says how to keep it out of git, and writes nothing into the git dir.
    assert.match(first.stdout, /git does not ignore \.agent\/: .* echo \.agent\/ >> \.git\/info\/exclude/);
    assert.doesNotMatch(await readFile(join(repo.dir, '.git', 'info', 'exclude'), 'utf8').catch(() => ''), /\.agent/);

    const again = await runCli(['init', '--repo', repo.dir], { env });
    assert.notEqual(again.code, 0, describeResult(again));
    assertNoStack(again);
    assert.match(again.stderr, /already exists; init overwrites nothing/);
  } finally {
    await repo.cleanup();
  }
});

test('artifacts lists a run’s saved outputs by kind with paths, prints one, and refuses other files', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { id, commonDir } = await repoIdentity(repo.dir);
    const runDir = join(commonDir, 'agent', 'artifacts', safeSegment(workflowIdFor(id, 'issue-agent', 4)));
    const other = join(commonDir, 'agent', 'artifacts', safeSegment(workflowIdFor(id, 'issue-agent', 40)));
    const transcript = join(runDir, 'initial.issue-1', 'transcript.aaa.json');
    const validator = join(runDir, 'validators', 'closure.issue', 'validator.bbb.txt');
    const tool = join(runDir, 'initial.issue-1', 'bash-output.ccc.txt');
    await repo.write({
      [transcript.slice(repo.dir.length + 1)]: '{"turns":[]}',
      [validator.slice(repo.dir.length + 1)]: '$ npm test\nok 1 - adds\n',
      [tool.slice(repo.dir.length + 1)]: 'lots of output',
      // A name no temp path or repository hash can hold (hex, mkdtemp's letters): `ddd` once matched a hash.
      [join(other, 'x', 'transcript.not-this-run.json').slice(repo.dir.length + 1)]: '{}',
    });

    const list = await runCli(['artifacts', '--issue', '4', '--repo', repo.dir], { env });
    assert.equal(list.code, 0, describeResult(list));
    assert.match(list.stdout, new RegExp(`model-transcript\\s+\\d+\\s+${transcript.replace(/[.]/g, '\\.')}`));
    assert.match(list.stdout, /validator-output .*validator\.bbb\.txt/);
    assert.match(list.stdout, /tool-result .*bash-output\.ccc\.txt/);
    assert.doesNotMatch(list.stdout, /not-this-run/, 'issue 40 is another run');

    const json = await runCli(['artifacts', '--issue', '4', '--repo', repo.dir, '--json'], { env });
    const parsed = JSON.parse(json.stdout) as { artifacts: Array<{ kind: string; path: string }> };
    assert.deepEqual(parsed.artifacts.map((a) => a.kind).sort(), [
      'model-transcript',
      'tool-result',
      'validator-output',
    ]);

    const show = await runCli(['artifacts', '--issue', '4', '--repo', repo.dir, '--show', validator], { env });
    assert.equal(show.code, 0, describeResult(show));
    assert.equal(show.stdout, '$ npm test\nok 1 - adds\n');
    const refused = await runCli(['artifacts', '--issue', '4', '--repo', repo.dir, '--show', '/etc/passwd'], { env });
    assert.notEqual(refused.code, 0);
    assertNoStack(refused);
    assert.match(refused.stderr, /is not an artifact of issue 4/);

    const none = await runCli(['artifacts', '--issue', '5', '--repo', repo.dir], { env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no saved outputs for issue 5/);
  } finally {
    await repo.cleanup();
  }
});
