#!/usr/bin/env node
// The type check, the linter and the format check of `npm test`, side by side: each is
// single-threaded, so one after another they took ~72 s of a 2-core machine's wall time
// and side by side ~35 s. Each one's output is printed whole when it ends (never
// interleaved); the exit status is the first failure's, or 0 when all three pass.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['type check', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['format check', 'npm', ['run', '--silent', 'format:check']],
];

const results = await Promise.all(
  CHECKS.map(
    ([name, file, args]) =>
      new Promise((resolve) => {
        const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (err) => resolve({ name, status: 1, output: `${output}${err.message}\n` }));
        child.on('close', (code, signal) => {
          process.stdout.write(output);
          resolve({ name, status: code ?? (signal ? 1 : 0), output });
        });
      }),
  ),
);
const failed = results.filter((r) => r.status !== 0);
for (const r of failed) console.error(`${r.name} failed (exit ${r.status})`);
process.exit(failed[0]?.status ?? 0);
