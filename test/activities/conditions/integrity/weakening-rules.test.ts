/**
 * What counts as a file of the tests. The data only tests read (Go's testdata/, Jest's
 * snapshots and __fixtures__, golden files) is a test file, so an expected output
 * rewritten there alone is a change of the tests (fixed-in-tests-only, the miner's test
 * patch); only test code is judged line by line for deleted tests and assertions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isTestCode,
  isTestFile,
  mayHoldTests,
} from '../../../../src/activities/conditions/integrity/weakening-rules.js';

test('fixture, snapshot and golden files are test files, not test code; code is neither', () => {
  const data = [
    'pkg/format/testdata/simple.golden',
    'testdata/input.json',
    'internal/parse/testdata/src/a/a.go',
    'src/__snapshots__/render.test.tsx.snap',
    'lib/__fixtures__/config.yml',
    'crates/parse/src/snapshots/parse__output.snap',
    'cmd/out.golden',
  ];
  for (const path of data) {
    assert.equal(isTestFile(path), true, path);
    assert.equal(isTestCode(path), false, path);
  }
  assert.equal(mayHoldTests('internal/parse/testdata/src/a/a.go'), false, 'a Go sample under testdata is no test code');
  for (const path of ['test/sum.test.ts', 'test/fixtures/data.json', 'src/sum_test.go', 'tests/test_a.py']) {
    assert.equal(isTestFile(path), true, path);
    assert.equal(isTestCode(path), true, path);
  }
  for (const path of ['src/sum.ts', 'src/testdata.go', 'pkg/golden.go', 'src/fixtures.py', 'README.md']) {
    assert.equal(isTestFile(path), false, path);
  }
});
