#!/usr/bin/env node
// What the suite's compiled tree saves (scripts/compiled-test-tree.mjs, issue 39): the same
// test files run by scripts/run-tests.mjs once from the compiled tree and once under tsx,
// one after the other in this run, and the CPU (user + system of every process the run
// started) and wall time of each, with their ratios. CPU is what counts on a 2-core
// machine whose suite is CPU-bound.
//
// Usage: node scripts/bench/test-loader.mjs [--json] [path substrings…]
// (default: the unit folders below, 64 files and 380 tests that start no Temporal server)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const DEFAULT_FILES = ['test/definition/', 'test/activities/model/', 'test/activities/issues/', 'test/contracts/'];
const args = process.argv.slice(2);
const json = args.includes('--json');
const filters = args.filter((a) => !a.startsWith('--'));

/** User + system seconds of this process's waited-for children so far (/proc/self/stat cutime, cstime). */
function childCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the ") ": field 3 of stat(5) is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function measure(loader) {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ['scripts/run-tests.mjs', ...(filters.length > 0 ? filters : DEFAULT_FILES)],
    { encoding: 'utf8', env: { ...process.env, TEST_LOADER: loader }, maxBuffer: 256 * 1024 * 1024 },
  );
  const wallS = (performance.now() - started) / 1000;
  const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(run.stdout)?.[1] ?? NaN);
  return {
    loader,
    status: run.status,
    tests: count('tests'),
    pass: count('pass'),
    wallS,
    cpuS: childCpuSeconds() - cpuBefore,
  };
}

const compiled = measure('compiled');
const tsx = measure('tsx');
const round = (n) => Math.round(n * 100) / 100;
const result = {
  files: filters.length > 0 ? filters : DEFAULT_FILES,
  compiled: { ...compiled, wallS: round(compiled.wallS), cpuS: round(compiled.cpuS) },
  tsx: { ...tsx, wallS: round(tsx.wallS), cpuS: round(tsx.cpuS) },
  compiledVsTsxCpu: round(compiled.cpuS / tsx.cpuS),
  compiledVsTsxWall: round(compiled.wallS / tsx.wallS),
};
if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  for (const r of [result.compiled, result.tsx])
    console.log(
      `${r.loader.padEnd(8)} ${r.tests} tests (${r.pass} pass, exit ${r.status}): ${r.cpuS} s CPU, ${r.wallS} s wall`,
    );
  console.log(`compiled / tsx: CPU ${result.compiledVsTsxCpu}, wall ${result.compiledVsTsxWall}`);
}
if (compiled.status !== 0 || tsx.status !== 0 || compiled.tests !== tsx.tests) process.exitCode = 1;
