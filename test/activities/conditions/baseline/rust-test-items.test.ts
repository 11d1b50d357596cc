/** Rust's test items inside source files: where they are, and whether a diff changed only them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  onlyRustTestItemsChanged,
  rustChange,
  rustTestItems,
} from '../../../../src/activities/conditions/baseline/rust-test-items.js';

const LIB = [
  'pub fn value() -> u32 {', // 1
  '    1', // 2
  '}', // 3
  '', // 4
  '#[cfg(test)]', // 5
  'mod tests {', // 6
  '    use super::*;', // 7
  "    const BRACE: char = '}';", // 8
  '    // a } in a comment', // 9
  '    /* nested /* } */ } */', // 10
  '    #[test]', // 11
  "    fn value_is_two<'a>() {", // 12
  '        let s: &\'a str = "}}";', // 13
  '        let r = r#"}"#;', // 14
  '        assert_eq!(value(), 2);', // 15
  '    }', // 16
  '}', // 17
  '', // 18
  'pub fn other() {}', // 19
  '#[test]', // 20
  'fn loose() { assert!(true) }', // 21
  '#[cfg(test)]', // 22
  'use std::fmt;', // 23
  '#[tokio::test]', // 24
  'async fn io() {}', // 25
];

test('test items: the cfg(test) module past braces in strings, chars, comments; #[test] fns; items ending in ;', () => {
  assert.deepEqual(rustTestItems(LIB.join('\n')), [
    { from: 5, to: 17 },
    { from: 20, to: 21 },
    { from: 22, to: 23 },
    { from: 24, to: 25 },
  ]);
  assert.deepEqual(rustTestItems('#[cfg(not(test))]\nfn f() {}\n#[cfg(feature = "x")]\nmod m {}\n'), []);
  assert.deepEqual(rustTestItems('#![cfg(test)]\nfn a() {}\nfn b() {}'), [{ from: 1, to: 3 }]);
});

/** A full-context diff of LIB with the changes given (line number → new text, or null to delete). */
function diffOf(changes: Readonly<Record<number, string | null>>): string {
  const body = LIB.flatMap((line, i) => {
    const change = changes[i + 1];
    if (change === undefined) return [` ${line}`];
    return change === null ? [`-${line}`] : [`-${line}`, `+${change}`];
  });
  return [
    'diff --git a/src/lib.rs b/src/lib.rs',
    '--- a/src/lib.rs',
    '+++ b/src/lib.rs',
    '@@ -1,25 +1,25 @@',
    ...body,
  ].join('\n');
}

test('a diff inside test items only: tests; any line of code outside: not', () => {
  assert.equal(onlyRustTestItemsChanged(diffOf({ 15: '        assert_eq!(value(), 1);' })), true);
  assert.equal(onlyRustTestItemsChanged(diffOf({ 15: '        return;', 21: 'fn loose() {}' })), true);
  assert.equal(onlyRustTestItemsChanged(diffOf({ 2: '    2', 15: '        assert_eq!(value(), 1);' })), false);
  assert.equal(onlyRustTestItemsChanged(diffOf({ 2: '    1 // fixed' })), false, 'a comment in code is code');
  assert.equal(
    onlyRustTestItemsChanged(diffOf({ 5: '#[cfg(any())]' })),
    false,
    'switching the module off is not inside it',
  );
  assert.equal(onlyRustTestItemsChanged(diffOf({})), false, 'no change');
  const added = ['@@ -0,0 +1,3 @@', '+#[cfg(test)]', '+mod more {', '+}'].join('\n');
  assert.equal(onlyRustTestItemsChanged(added), true, 'a new test module');
});

test('a diff of both: the base code with the branch test items, to run its tests on the base code', () => {
  const both = rustChange(diffOf({ 2: '    1 // fixed', 15: '        assert_eq!(value(), 1);' }));
  assert.deepEqual([both.tests, both.code], [true, true]);
  const lines = both.testsOnBaseCode?.split('\n') ?? [];
  assert.equal(lines[1], '    1', 'the code as on the base');
  assert.equal(lines[14], '        assert_eq!(value(), 1);', "the branch's test");
  assert.equal(lines.length, LIB.length + 1);
  assert.equal(
    rustChange(diffOf({ 15: '        return;' })).testsOnBaseCode,
    undefined,
    'tests only: nothing to splice',
  );
});
