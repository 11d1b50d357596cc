#!/usr/bin/env node
// Writes eval/sessions/<task>.json: one offline, scripted playbook session per shipped eval
// task (understand → reproduce → implement → review → closure), so CI runs the eval with no
// key. Edit the specs below and run `node scripts/make-eval-sessions.mjs` to regenerate.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'eval', 'sessions');

const SPECS = [
  {
    id: 'js-sum',
    criteria: ['sum(2, 3) returns 5', 'sum adds negative numbers: sum(-4, 10) returns 6'],
    testCommand: 'npm test --silent',
    test: {
      path: 'test/sum-adds.test.js',
      text: "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum adds its operands', () => {\n  assert.equal(sum(2, 3), 5);\n  assert.equal(sum(-4, 10), 6);\n});\n",
    },
    repro: 'node --test test/sum-adds.test.js',
    fix: { path: 'src/sum.js', old: 'return a - b;', new: 'return a + b;' },
  },
  {
    // Misses the second criterion (bounds in either order): delivered, but the hidden checks fail.
    id: 'js-clamp',
    criteria: ['clamp(15, 0, 10) returns 10'],
    testCommand: 'npm test --silent',
    test: {
      path: 'test/clamp-upper.test.js',
      text: "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\n\ntest('values above the range are lowered to hi', () => {\n  assert.equal(clamp(15, 0, 10), 10);\n});\n",
    },
    repro: 'node --test test/clamp-upper.test.js',
    fix: { path: 'src/clamp.js', old: 'return Math.max(value, lo);', new: 'return Math.min(Math.max(value, lo), hi);' },
  },
  {
    id: 'js-slugify',
    criteria: ["slugify(' Hello, World! ') returns 'hello-world'", 'no leading or trailing dash'],
    testCommand: 'npm test --silent',
    test: {
      path: 'test/slugify-case.test.js',
      text: "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slugify } from '../src/slugify.js';\n\ntest('lower case, no edge dashes', () => {\n  assert.equal(slugify(' Hello, World! '), 'hello-world');\n});\n",
    },
    repro: 'node --test test/slugify-case.test.js',
    fix: {
      path: 'src/slugify.js',
      old: "return title.replace(/[^A-Za-z0-9]+/g, '-');",
      new: "return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');",
    },
  },
  {
    id: 'py-median',
    criteria: ['median([1, 2, 3, 4]) returns 2.5', 'odd counts still return the middle value'],
    testCommand: 'npm test --silent',
    test: {
      path: 'tests/test_even.py',
      text: 'from stats import median\n\n\ndef test_even_count():\n    assert median([4, 1, 3, 2]) == 2.5\n',
    },
    repro: 'python3 -m pytest -q -p no:cacheprovider tests/test_even.py',
    fix: {
      path: 'stats.py',
      old: '    return ordered[len(ordered) // 2]\n',
      new: '    mid = len(ordered) // 2\n    if len(ordered) % 2 == 0:\n        return (ordered[mid - 1] + ordered[mid]) / 2\n    return ordered[mid]\n',
    },
  },
  {
    id: 'go-maxint',
    criteria: ['Max([]int{-3, -1, -2}) returns -1'],
    testCommand: 'npm test --silent',
    test: {
      path: 'negative_test.go',
      text: 'package maxint\n\nimport "testing"\n\nfunc TestMaxNegative(t *testing.T) {\n\tif got := Max([]int{-3, -1, -2}); got != -1 {\n\t\tt.Fatalf("Max = %d, want -1", got)\n\t}\n}\n',
    },
    repro: 'go test -run TestMaxNegative ./...',
    fix: { path: 'maxint.go', old: '\tbest := 0\n', new: '\tbest := values[0]\n' },
  },
];

const rule = (id, step, turn, respond) => ({ id, when: { promptContains: `Step ${step}`, turn }, respond });
const bash = (command) => ({ toolUse: [{ name: 'bash', input: { command } }] });
const edit = (input) => ({ toolUse: [{ name: 'str_replace_based_edit_tool', input }] });
const answer = (stepId, summary, action, rest) => ({
  json: { stepId, status: 'completed', summary, next_action: { action, reason: summary }, ...rest },
});

for (const s of SPECS) {
  const rules = [
    rule(
      'understand',
      'initial.understand',
      0,
      answer('initial.understand', 'Criteria set.', 'next', {
        understanding: {
          acceptance_criteria: s.criteria,
          relevant_files: [s.fix.path, s.test.path],
          test_command: s.testCommand,
        },
      }),
    ),
    rule(
      'reproduce-write',
      'continuation.reproduce',
      0,
      edit({ command: 'create', path: s.test.path, file_text: s.test.text }),
    ),
    rule(
      'reproduce-commit',
      'continuation.reproduce',
      1,
      // Commit first, then run the checks: a check that fails or times out on a loaded host
      // must not leave the work uncommitted (the git-clean gate would then abort the run).
      bash(`git add ${s.test.path} && git commit -q -m 'Reproduce issue #1'; ${s.repro}`),
    ),
    rule(
      'reproduce-answer',
      'continuation.reproduce',
      2,
      answer('continuation.reproduce', 'The new test fails.', 'next', {
        reproduction: { kind: 'test', command: s.repro, observed: 'fails' },
      }),
    ),
    rule(
      'implement-edit',
      'continuation.implement',
      0,
      edit({ command: 'str_replace', path: s.fix.path, old_str: s.fix.old, new_str: s.fix.new }),
    ),
    rule(
      'implement-commit',
      'continuation.implement',
      1,
      bash(`git add -A && git commit -q -m 'Fix #1'; ${s.repro} && ${s.testCommand}`),
    ),
    rule(
      'implement-answer',
      'continuation.implement',
      2,
      answer('continuation.implement', 'Fixed and committed; suite passes.', 'next', {
        work: { changes: `${s.fix.path}: fixed`, tests: `${s.repro}; ${s.testCommand}: pass` },
      }),
    ),
    rule(
      'review-diff',
      'verification.review',
      0,
      bash('git diff $(git merge-base HEAD main)..HEAD; git status --porcelain'),
    ),
    rule(
      'review-answer',
      'verification.review',
      1,
      answer('verification.review', 'Criteria met; no problems.', 'next', {
        review: { criteria: s.criteria.map((c) => ({ criterion: c, met: true, evidence: s.repro })), problems: [] },
      }),
    ),
    rule('closure-check', 'closure.issue', 0, bash(`${s.repro} && ${s.testCommand} && git status --porcelain`)),
    rule(
      'closure-answer',
      'closure.issue',
      1,
      answer('closure.issue', 'Checks pass; tree clean.', 'closing', {
        verdict: 'done',
        evidence: {
          git_status: '',
          tests: `${s.testCommand}: pass`,
          commands: [{ command: s.testCommand, result: 'exit 0' }],
        },
      }),
    ),
  ];
  writeFileSync(
    join(OUT, `${s.id}.json`),
    JSON.stringify({ name: `eval ${s.id}`, model: 'claude-sonnet-4-6', rules }, null, 2) + '\n',
  );
}
