/**
 * What counts as a test file, a skip marker, an assertion, a test declaration, a
 * test/CI configuration file and a coverage threshold, across the runners agents meet
 * most (Jest/Vitest/Mocha, pytest/unittest, Go, Rust, JUnit). PURE. Kept apart from
 * the detector so the vocabulary can grow without touching the diff logic.
 */

const TEST_PATH: readonly RegExp[] = [
  /(^|\/)(test|tests|__tests__|spec|specs|e2e)\//i,
  /\.(test|spec)\.[cm]?[jt]sx?$/i,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.(py|go)$/,
  /(^|\/)[^/]*Tests?\.(java|kt|cs)$/,
  /_spec\.rb$/,
];

/** Test code: the detector judges its deleted tests, skips and assertions. */
export function isTestCode(path: string): boolean {
  return TEST_PATH.some((re) => re.test(path));
}

/**
 * Data only the tests read, kept apart from the code: Go's `testdata/`, Jest's
 * `__fixtures__/` and snapshots, `*.golden` expected outputs. An expected output rewritten
 * there is a change of the tests, not of the code (fixed-in-tests-only's tests/code split).
 */
const TEST_DATA: readonly RegExp[] = [/(^|\/)(testdata|__fixtures__)\//, /\.golden$/];

/** A file of the tests: test code, or the data only tests read (fixtures, snapshots, golden files). */
export function isTestFile(path: string): boolean {
  return isTestCode(path) || SNAPSHOT_PATH.test(path) || TEST_DATA.some((re) => re.test(path));
}

/** Rust keeps unit tests beside the code (`#[cfg(test)]`), so every .rs file is checked for markers. */
export function mayHoldTests(path: string): boolean {
  return isTestCode(path) || path.endsWith('.rs');
}

export const SNAPSHOT_PATH = /(^|\/)__snapshots__\/|\.snap$|\.ambr$|(^|\/)snapshots\/[^/]*\.snap\.new$/;

const SKIP_MARKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(it|test|describe|suite|context|bench)\.(skip|todo|skipIf|runIf)\b/, 'skips a test'],
  [/\b(xit|xtest|xdescribe|xcontext|xspecify)\s*\(/, 'skips a test'],
  [
    /\b(it|test|describe|suite|context)\.only\b|\b(fit|fdescribe)\s*\(/,
    'runs only some tests (.only), skipping the rest',
  ],
  [/@pytest\.mark\.(skip|skipif|xfail)\b|\bpytest\.(skip|xfail)\s*\(/, 'skips a test'],
  [/@unittest\.(skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\s*\(/, 'skips a test'],
  [/\bt\.(Skip|Skipf|SkipNow)\s*\(/, 'skips a test'],
  [/#\[ignore\b/, 'skips a test (#[ignore])'],
  // Also written by its full name (`@org.junit.Ignore`, `@org.junit.jupiter.api.Disabled`).
  [/@(?:\w+\.)*(Disabled|Ignore)\b/, 'skips a test'],
  // `//go:build ignore` (or any constraint) leaves a _test.go file out of `go test` unseen.
  [/^\/\/go:build\b/, 'adds a build constraint that can leave the tests out'],
];

/** Why an added line skips tests, or undefined. */
export function skipMarker(text: string): string | undefined {
  const code = text.trim();
  if (code.startsWith('//') && !code.startsWith('//go:')) return undefined;
  for (const [re, why] of SKIP_MARKERS) if (re.test(code)) return why;
  return undefined;
}

const ASSERTION =
  /\b(assert\w*|expect|should|verify|require\.\w+|assert_\w+!?)\s*[(.!]|^\s*assert\s|\bt\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\bself\.assert\w*\s*\(/;

export function isAssertion(text: string): boolean {
  const code = text.trim();
  if (code.startsWith('//') || code.startsWith('#') || code.startsWith('*')) return false;
  return ASSERTION.test(code);
}

/**
 * An assertion that the code fails (throws, rejects, raises, panics, returns an error).
 * Turned into its opposite (`assert.throws` to `assert.doesNotThrow`, `.toThrow()` to
 * `.not.toThrow()`, `assertThrows` to `assertDoesNotThrow`) or dropped (`with
 * pytest.raises(…):`, `#[should_panic]`), the test passes on code that no longer fails
 * where it must, and an assertion rewritten in place is no removed assertion.
 */
const EXPECTS_ERROR =
  /\bassert\.(throws|rejects)\s*\(|\.(toThrow\w*|rejects)\b|\.to\.(throw|be\.rejected)\b|\bassert(Raises\w*|Throws\w*|_raises)\b|\bassertThat(ThrownBy|ExceptionOfType)\b|\bexpectThrows\b|\bpytest\.raises\s*\(|#\[\s*should_panic\b|\braise_error\b|\b(assert|require)\.(Error\w*|EqualError|Panics\w*)\s*\(|\bassert\w*!\s*\(.*\.is_err\(\)|\.(unwrap_err|expect_err)\s*\(|\bexpected\s*=\s*[\w.]+\.class\b/;
const NEGATED =
  /\.not\b|\bnot_to\b|\bto_not\b|\bdoesNot\w*|\bDoesNot\w*|\bNo(Error|Panic)|\bNotPanics|\bassertNot\w*|![\w.]*\.is_err\(\)/;

/** Whether a line asserts that the code fails. */
export function expectsError(text: string): boolean {
  const code = text.trim();
  if (code.startsWith('//') || code.startsWith('*') || (code.startsWith('#') && !code.startsWith('#['))) return false;
  return EXPECTS_ERROR.test(code) && !NEGATED.test(code);
}

const TEST_DECLARATIONS: readonly RegExp[] = [
  /\b(?:[xf]?it|[xf]?test|specify)(?:\.\w+)*\s*\(\s*(['"`])(.+?)\1/,
  /^\s*(?:async\s+)?def\s+(test\w*)\s*\(/,
  /^\s*func\s+(Test\w+)\s*\(/,
  /^\s*(?:pub\s+)?(?:async\s+)?fn\s+(test\w*)\s*\(/,
];

/** The name a line declares a test under, or undefined. */
export function testDeclaration(text: string): string | undefined {
  for (const re of TEST_DECLARATIONS) {
    const m = re.exec(text);
    if (m) return m[m.length - 1];
  }
  return undefined;
}

/** CI pipelines: they run tests on a CI service, never in a local test command. */
const CI_PIPELINE: readonly RegExp[] = [
  /^\.github\/workflows\//,
  /^\.gitlab-ci\.ya?ml$|^\.circleci\/|^Jenkinsfile$|^azure-pipelines\.ya?ml$|^\.travis\.ya?ml$/,
];

/**
 * A test a Rust test-generating macro declares one a row (`test_u64_0(0u64, "0"),` in
 * itoa's `test! { … }`): its name, for a `.rs` file. No `fn` line names it, so a deleted
 * row is a deleted test only by this rule.
 */
export function testRowName(path: string, text: string): string | undefined {
  return path.endsWith('.rs') ? /^\s*(test\w*)\s*\(.*\)\s*,?\s*$/.exec(text)?.[1] : undefined;
}

const CI_OR_TEST_CONFIG: readonly RegExp[] = [
  ...CI_PIPELINE,
  /(^|\/)(jest|vitest|vite|playwright|karma|cypress|ava|wdio)\.config\.[cm]?[jt]s$/,
  /(^|\/)(\.mocharc(\.\w+)?|\.nycrc(\.\w+)?|\.c8rc(\.\w+)?|codecov\.ya?ml|\.coveragerc)$/,
  /(^|\/)(pytest\.ini|tox\.ini|noxfile\.py|conftest\.py|setup\.cfg)$/,
  // What the test command itself runs through: cargo's `runner` (a script can rewrite every
  // result to ok), npm's `script-shell`, yarn's `yarnPath`, Maven's build extensions.
  /(^|\/)(\.cargo\/config(\.toml)?|\.npmrc|\.yarnrc(\.ya?ml)?|\.mvn\/extensions\.xml)$/,
];

/** Manifests that hold test settings among other things: only test-related lines count. */
const SHARED_MANIFEST = /(^|\/)(package\.json|pyproject\.toml|Cargo\.toml)$/;
const TEST_SETTING =
  /"test[\w:-]*"\s*:|\bjest\b|\bvitest\b|\bpytest\b|addopts|testpaths|\bcoverage\b|fail_under|\bautotests\b|^\s*\[\[test\]\]|^\s*(test|doctest|harness)\s*=/i;

/**
 * Build files that also decide which tests run (a `<skipTests>`, `autotests = false`, a
 * Makefile test recipe, a removed `add_test`): only their lines about tests count, so a
 * build fix is no finding. The test count (tests-ran.ts) catches such a switch for the
 * runners it counts; this catches it for the rest (a Makefile calling a script).
 */
const BUILD_FILE_TEST_LINES: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [
    /(^|\/)pom\.xml$/,
    /skipTests|maven\.test\.skip|skipITs|testFailureIgnore|maven\.test\.failure\.ignore|<\/?(excludes?|includes?|test|groups|excludedGroups|testSourceDirectory)>|surefire|failsafe/i,
  ],
  // Arguments Maven adds to every command line, the harness's test command included: a
  // `-Dmaven.test.failure.ignore=true` there makes failing tests exit 0 with every test run.
  [
    /(^|\/)\.mvn\/(maven|jvm)\.config$/,
    /skipTests|maven\.test\.(skip|failure\.ignore)|skipITs|testFailureIgnore|-D(test|it\.test|groups|excludedGroups)=|surefire|failsafe|--fail-never|(^|\s)-fn(\s|$)/i,
  ],
  [/(^|\/)build\.gradle(\.kts)?$/, /\btests?\b|\bexclude\b|ignoreFailures|enabled\s*=|onlyIf|useJUnit|\bfilter\b/],
  [/(^|\/)(GNUmakefile|makefile|Makefile)$|\.mk$/, /\b(tests?|check|spec|pytest|ctest|prove|unittest)\b/i],
  [
    /(^|\/)CMakeLists\.txt$|\.cmake$/,
    /add_test|enable_testing|include\s*\(\s*CTest|BUILD_TESTING|gtest_(add|discover)_tests|set_tests_properties/i,
  ],
];

/** What a build writes (CMake's generated Makefiles and CTestTestfile.cmake): never the project's own settings. */
const BUILD_OUTPUT = /(^|\/)(build|cmake-build-[^/]*|_build|target|out)\//;

/** Whether a changed line in `path` edits CI or test configuration. */
export function isTestConfigChange(path: string, text: string): boolean {
  if (CI_OR_TEST_CONFIG.some((re) => re.test(path))) return true;
  if (!BUILD_OUTPUT.test(path) && BUILD_FILE_TEST_LINES.some(([file, line]) => file.test(path) && line.test(text)))
    return true;
  return SHARED_MANIFEST.test(path) && TEST_SETTING.test(text);
}

export function isTestConfigFile(path: string): boolean {
  return CI_OR_TEST_CONFIG.some((re) => re.test(path));
}

export function isCiPipelineFile(path: string): boolean {
  return CI_PIPELINE.some((re) => re.test(path));
}

const THRESHOLD =
  /(fail[_-]under|cov-fail-under|coverageThreshold|threshold|branches|functions|lines|statements|min[_-]?coverage)["']?\s*[:=]?\s*(\d+(?:\.\d+)?)/i;

/** A coverage threshold on the line: its key and value. */
export function coverageThreshold(path: string, text: string): { key: string; value: number } | undefined {
  const configFile = isTestConfigFile(path) || SHARED_MANIFEST.test(path);
  if (!configFile && !/cov|threshold|fail[_-]under/i.test(text)) return undefined;
  const m = THRESHOLD.exec(text);
  return m ? { key: (m[1] ?? '').toLowerCase(), value: Number(m[2]) } : undefined;
}
