/**
 * Bad values for the newer `.agent/config.json` settings are refused by the reader with
 * the file and the JSON pointer of the value and what was expected, never taken as a
 * default: a run with a typo in its approval policy would otherwise run unapproved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRepoConfig } from '../../../src/definition/repo-config/read-repo-config.js';

async function refused(config: unknown, pointer: RegExp, says: RegExp): Promise<void> {
  const repo = await mkdtemp(join(tmpdir(), 'config-bad-'));
  try {
    await mkdir(join(repo, '.agent'));
    await writeFile(join(repo, '.agent', 'config.json'), JSON.stringify(config));
    await assert.rejects(readRepoConfig(repo), (err: Error & { where?: string }) => {
      assert.match(String(err.where), pointer, `${err.message} @ ${String(err.where)}`);
      assert.match(String(err.where), /\.agent\/config\.json#/);
      assert.match(err.message, says);
      return true;
    });
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}

test('planApproval: an unknown word, a negative maxFiles, a path that is not a string', async () => {
  await refused({ planApproval: 'sometimes' }, /#\/planApproval$/, /never|always|one of|must/i);
  await refused({ planApproval: { maxFiles: -1 } }, /#\/planApproval\/maxFiles$/, /must be >= 0|minimum|>=/i);
  await refused({ planApproval: { paths: [3] } }, /#\/planApproval\/paths\/0$/, /string/i);
  await refused({ planApproval: { maxFile: 3 } }, /#\/planApproval/, /maxFile|additional|unknown/i);
});

test('watch.ciRounds: not a number, negative, fractional', async () => {
  await refused({ watch: { ciRounds: 'two' } }, /#\/watch\/ciRounds$/, /integer|number/i);
  await refused({ watch: { ciRounds: -1 } }, /#\/watch\/ciRounds$/, /must be >= 0|minimum|>=/i);
  await refused({ watch: { ciRounds: 1.5 } }, /#\/watch\/ciRounds$/, /integer/i);
});
