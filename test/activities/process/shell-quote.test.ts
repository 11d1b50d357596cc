/**
 * The harness's one shell quoting: whatever an argument holds, bash and Python's shlex
 * (pytest's PYTEST_ADDOPTS) read it back as one word; plain words stay bare.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { shellQuote } from '../../../src/activities/process/shell-quote.js';

const HOSTILE = ["it's", 'a b', '$(touch x)', '`id`', '', '~root', 'a;b', '*', 'line\nbreak', '--junitxml=/t/a b.xml'];

test('bash reads every quoted argument back as the one word it was', () => {
  const line = HOSTILE.map(shellQuote).join(' ');
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  assert.deepEqual(out.split('\0').slice(0, -1), HOSTILE);
});

test("Python's shlex (how pytest splits PYTEST_ADDOPTS) reads them back the same", () => {
  const line = HOSTILE.map(shellQuote).join(' ');
  const script = 'import json, shlex, sys; print(json.dumps(shlex.split(sys.stdin.read())))';
  const out = execFileSync('python3', ['-c', script], { input: line, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), HOSTILE);
});

test('plain words, paths and flags stay bare', () => {
  for (const word of ['git', '--no-verify', '/tmp/x/y.txt', 'user.name=CI', 'a,b'])
    assert.equal(shellQuote(word), word);
});
