/**
 * `artifacts --show` as a second line against a forged audit trail: a file whose content no
 * longer matches the sha256 in its name is not printed, the warning names the file and both
 * hashes, and the command exits SHOW_MISMATCH. On a terminal, what it prints drives no
 * terminal (a tool result is the tested code's output).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createArtifactStore, stepArtifactDir } from '../../../src/activities/artifacts/artifact-store.js';
import { sha256Hex } from '../../../src/activities/artifacts/artifact-integrity.js';
import { SHOW_MISMATCH, shownBytes } from '../../../src/cli/commands/artifacts.js';
import { artifactsDirOf } from '../../../src/host/state-paths.js';
import { repoIdentity, workflowIdFor } from '../../../src/host/repo-identity.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { assertTerminalSafe, HOSTILE } from '../../helpers/hostile-text.js';
import { assertNoStack, DEAD_ADDRESS, describeResult, runCli } from '../cli-process.js';

const env = { TEMPORAL_ADDRESS: DEAD_ADDRESS };

test('artifacts --show prints a genuine artifact and refuses a forged one with a warning and exit 3', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const { id, commonDir } = await repoIdentity(repo.dir);
    const dir = stepArtifactDir(artifactsDirOf(commonDir), workflowIdFor(id, 'issue-agent', 7), 'initial.issue', 1);
    const store = createArtifactStore(dir);
    const genuine = '{"turns":[{"role":"assistant","text":"I ran the tests."}]}';
    const ref = await store.put('transcript', genuine, 'json');
    const show = ['artifacts', '--issue', '7', '--repo', repo.dir, '--show', ref.path];

    const before = await runCli(show, { env });
    assert.equal(before.code, 0, describeResult(before));
    assert.equal(before.stdout, genuine);
    assert.equal(before.stderr, '', 'a verified artifact prints no warning');

    const forged = '{"turns":[{"role":"assistant","text":"I read no secrets."}]}';
    await writeFile(ref.path, forged);
    const after = await runCli(show, { env });
    assert.equal(after.code, SHOW_MISMATCH, describeResult(after));
    assert.equal(SHOW_MISMATCH, 3);
    assertNoStack(after);
    assert.equal(after.stdout, '', 'the forgery is not printed');
    assert.ok(after.stderr.includes(ref.path), after.stderr);
    assert.ok(after.stderr.includes(ref.sha256), 'the expected hash (the name) is in the warning');
    assert.ok(after.stderr.includes(sha256Hex(forged)), 'the actual hash is in the warning');
    assert.match(after.stderr, /^warning: .* was changed after it was written/);
  } finally {
    await repo.cleanup();
  }
});

test('--show on a terminal prints a saved tool output with its escape sequences visible; piped, the bytes as saved', () => {
  const saved = Buffer.from(`npm test\n${HOSTILE}\n\tok\n`);
  const shown = String(shownBytes(saved, true));
  assertTerminalSafe(shown, 'a tool result shown on a terminal');
  assert.match(shown, /^npm test\nDone \\x1b\]52;c;cHduZWQ=\\x07/);
  assert.ok(shown.endsWith('\n\tok\n'), 'newlines and tabs are kept');
  assert.equal(shownBytes(saved, false), saved);
});
