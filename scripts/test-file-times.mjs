// A node:test reporter that prints, after the TAP stream, the test files that took longest
// (the sum of their top-level tests' durations; each file also pays ~1 s to start). It is
// where to look first when the suite gets slower.
import { writeFileSync } from 'node:fs';

const SHOWN = 15;

/** A file's path from the checkout, the same whether it ran compiled (.test-build/run-<pid>/…/x.test.js) or not. */
const shown = (file) =>
  file
    .replace(`${process.cwd()}/`, '')
    .replace(/^\.test-build\/run-\d+\//, '')
    .replace(/\.test\.js$/, '.test.ts');

export default async function* fileTimes(source) {
  const msByFile = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file) continue;
    msByFile.set(shown(file), (msByFile.get(shown(file)) ?? 0) + (details?.duration_ms ?? 0));
  }
  if (process.env.TEST_FILE_TIMES)
    writeFileSync(process.env.TEST_FILE_TIMES, JSON.stringify(Object.fromEntries(msByFile), null, 1));
  const slowest = [...msByFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  const total = [...msByFile.values()].reduce((sum, ms) => sum + ms, 0);
  yield `\n# slowest test files (of ${msByFile.size}, ${(total / 1000).toFixed(0)} s of tests in all)\n`;
  for (const [file, ms] of slowest) yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
  // Where the time goes by folder (two levels under test/): what to make cheaper first.
  const msByFolder = new Map();
  for (const [file, ms] of msByFile) {
    const folder = file.split('/').slice(0, 3).join('/');
    const key = folder.endsWith('.test.ts') ? folder.split('/').slice(0, 2).join('/') : folder;
    const [sum, count] = msByFolder.get(key) ?? [0, 0];
    msByFolder.set(key, [sum + ms, count + 1]);
  }
  yield `# by folder (s, files)\n`;
  for (const [folder, [ms, count]] of [...msByFolder].sort((a, b) => b[1][0] - a[1][0]).slice(0, SHOWN))
    yield `#   ${(ms / 1000).toFixed(0).padStart(6)} s ${String(count).padStart(4)}  ${folder}\n`;
}
