// A node:test reporter that prints, after the TAP stream, the test files that took longest
// (the sum of their top-level tests' durations; each file also pays ~1 s to start). It is
// where to look first when the suite gets slower.
import { writeFileSync } from 'node:fs';

const SHOWN = 15;

export default async function* fileTimes(source) {
  const msByFile = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file) continue;
    msByFile.set(file, (msByFile.get(file) ?? 0) + (details?.duration_ms ?? 0));
  }
  if (process.env.TEST_FILE_TIMES)
    writeFileSync(process.env.TEST_FILE_TIMES, JSON.stringify(Object.fromEntries(msByFile), null, 1));
  const slowest = [...msByFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  const total = [...msByFile.values()].reduce((sum, ms) => sum + ms, 0);
  yield `\n# slowest test files (of ${msByFile.size}, ${(total / 1000).toFixed(0)} s of tests in all)\n`;
  for (const [file, ms] of slowest)
    yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file.replace(`${process.cwd()}/`, '')}\n`;
}
