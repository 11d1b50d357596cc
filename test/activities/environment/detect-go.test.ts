/**
 * The Go steps of the plan in a repository of several modules: `go mod download` and the
 * warm-up build run in every module's directory (the root's `./...` stops at a nested
 * go.mod, whose dependencies would then be missing offline), keyed on every module's
 * go.mod and go.sum; a single root module keeps the plain commands.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { detectGo } from '../../../src/definition/ecosystems/go-setup.js';

async function goPlan(files: Record<string, string>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'env-go-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    return await detectGo(dir, cacheLayout(dir));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('several Go modules: download and warm-up in each, keyed on every go.mod and go.sum', async () => {
  const plan = await goPlan({ 'go.mod': 'module x\n', 'go.sum': '', 'lib/go.mod': 'module x/lib\n' });
  assert.match(plan?.detected ?? '', /^go: go mod download \(go\.mod in \., lib\), then .* in every module/);
  assert.deepEqual(
    plan?.steps.map((s) => [s.id, s.command, s.inputs.join(' '), s.optional ?? false]),
    [
      [
        'go-download',
        `rc=0; for m in '.' 'lib'; do (cd "$m" && go mod download) || rc=1; done; exit $rc`,
        'go.mod go.sum lib/go.mod',
        false,
      ],
      [
        'go-warm',
        `rc=0; for m in '.' 'lib'; do (cd "$m" && go test -count=1 -run='^$' ./...) || rc=1; done; exit $rc`,
        'go.mod go.sum lib/go.mod',
        true,
      ],
    ],
  );
  const single = await goPlan({ 'go.mod': 'module x\n' });
  assert.deepEqual(
    single?.steps.map((s) => s.command),
    ['go mod download', "go test -count=1 -run='^$' ./..."],
  );
  assert.equal(await goPlan({ 'README.md': '' }), undefined);
});
