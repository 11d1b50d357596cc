/**
 * The suite's compiled tree (scripts/compiled-test-tree.mjs): each .ts has a working .js
 * beside it, what a test may copy and edit is a copy (a linked registry/ once let a test's
 * edit of its "copy" reach the checkout), the large and stateful entries are links, and a
 * run's tree never takes another live run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCompiledTestTree, removeCompiledTestTree, TEST_BUILD_DIR } from '../../scripts/compiled-test-tree.mjs';

function fakeCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), 'compiled-tree-'));
  const files: Record<string, string> = {
    'src/answer.ts': 'export const answer: number = 6 * 7;\nexport const where: string = import.meta.url;\n',
    'src/data.json': '{"x":1}\n',
    'test/answer.test.ts': "import { answer } from '../src/answer.js';\nexport const seen: number = answer;\n",
    'scripts/tool.mjs': 'export const tool = 1;\n',
    'registry/agent.json': '{"name":"a"}\n',
    'node_modules/dep/index.js': 'export default 1;\n',
    '.git/HEAD': 'ref: refs/heads/main\n',
    'README.md': '# r\n',
    'tsconfig.json': '{"compilerOptions":{"target":"ES2022","module":"NodeNext","verbatimModuleSyntax":true}}\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('every .ts gets a working .js beside it; copies where a test may edit, links for node_modules and .git', async () => {
  const root = fakeCheckout();
  const tree = await buildCompiledTestTree(root);
  try {
    assert.equal(tree, join(root, TEST_BUILD_DIR, `run-${process.pid}`));
    const compiled = (await import(pathToFileURL(join(tree, 'test/answer.test.js')).href)) as { seen: number };
    assert.equal(compiled.seen, 42, 'the compiled test imports the compiled source');
    const source = (await import(pathToFileURL(join(tree, 'src/answer.js')).href)) as { where: string };
    // (answer.ts under tsx, which prefers a .ts to the .js named; answer.js compiled)
    assert.match(
      source.where,
      new RegExp(`^${pathToFileURL(join(tree, 'src/answer.'))}[jt]s$`),
      'a module sees the copy',
    );
    assert.ok(existsSync(join(tree, 'src/answer.ts')), 'the .ts stays beside its .js (tests spawn it under tsx)');
    const map = JSON.parse(readFileSync(join(tree, 'src/answer.js.map'), 'utf8')) as { sources: string[] };
    assert.deepEqual(map.sources, ['../../../src/answer.ts'], "the source map names the checkout's .ts");
    for (const copied of ['src/data.json', 'scripts/tool.mjs', 'registry/agent.json', 'README.md'])
      assert.ok(lstatSync(join(tree, copied)).isFile(), `${copied} is a copy`);
    for (const linked of ['node_modules', '.git']) assert.ok(lstatSync(join(tree, linked)).isSymbolicLink(), linked);
    writeFileSync(join(tree, 'registry/agent.json'), '{"name":"edited"}\n');
    assert.equal(
      readFileSync(join(root, 'registry/agent.json'), 'utf8'),
      '{"name":"a"}\n',
      'the checkout is untouched',
    );
  } finally {
    removeCompiledTestTree(tree);
  }
  assert.ok(!existsSync(tree));
});

test("a run's tree removes the trees of runs that are gone and keeps a live run's", async () => {
  const root = fakeCheckout();
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  try {
    const live = join(root, TEST_BUILD_DIR, `run-${other.pid}`);
    const gone = join(root, TEST_BUILD_DIR, 'run-999999999');
    for (const dir of [live, gone]) mkdirSync(join(dir, 'src'), { recursive: true });
    const tree = await buildCompiledTestTree(root);
    assert.ok(existsSync(live), 'a live run keeps its tree');
    assert.ok(!existsSync(gone), "a gone run's tree is removed");
    removeCompiledTestTree(tree);
  } finally {
    other.kill();
  }
});
