/**
 * Every ecosystem the harness knows, in detection order: the first whose files call for a
 * test command gives it (Node before a C build that wraps it, Maven and Gradle before a
 * stray Python file, nox only when nothing else found one), and unrecoverable patterns
 * are checked in this order. Setups and test reports have orders of their own. Keyed by id so the compiler lists an id without a module.
 */
import { C_BUILD_ECOSYSTEM } from './c-build-ecosystem.js';
import type { EcosystemId, EcosystemModule } from './ecosystem.js';
import { GO_ECOSYSTEM } from './go-ecosystem.js';
import { GRADLE_ECOSYSTEM } from './gradle-ecosystem.js';
import { MAVEN_ECOSYSTEM } from './maven-ecosystem.js';
import { NODE_ECOSYSTEM } from './node-ecosystem.js';
import { NOX_ECOSYSTEM } from './nox-ecosystem.js';
import { PYTHON_ECOSYSTEM } from './python-ecosystem.js';
import { RUST_ECOSYSTEM } from './rust-ecosystem.js';
import type { TestRunner } from './test-runners/test-runner.js';

const BY_ID = {
  node: NODE_ECOSYSTEM,
  'c-build': C_BUILD_ECOSYSTEM,
  maven: MAVEN_ECOSYSTEM,
  gradle: GRADLE_ECOSYSTEM,
  python: PYTHON_ECOSYSTEM,
  go: GO_ECOSYSTEM,
  rust: RUST_ECOSYSTEM,
  nox: NOX_ECOSYSTEM,
} as const satisfies Record<EcosystemId, EcosystemModule>;

/** In detection order (the object's key order). */
export const ECOSYSTEMS: readonly EcosystemModule[] = Object.values(BY_ID);

/**
 * The order setups are planned and run in: Node and Python first, a C build last (said
 * only when nothing else was).
 */
const SETUP_ORDER = [
  'node',
  'python',
  'go',
  'rust',
  'nox',
  'maven',
  'gradle',
  'c-build',
] as const satisfies readonly EcosystemId[];

export const ECOSYSTEMS_IN_SETUP_ORDER: readonly EcosystemModule[] = SETUP_ORDER.map((id) => BY_ID[id]);

/**
 * The order a test run's output and reports are read in (activities/conditions/test-reports/):
 * failures are listed in it, so the JavaScript runners' come first and a C build's last.
 */
const REPORT_ORDER = [
  'node',
  'python',
  'go',
  'rust',
  'maven',
  'gradle',
  'c-build',
  'nox',
] as const satisfies readonly EcosystemId[];

export const ECOSYSTEMS_IN_REPORT_ORDER: readonly EcosystemModule[] = REPORT_ORDER.map((id) => BY_ID[id]);

/** Every test runner an ecosystem owns, in report order. */
export const TEST_RUNNERS: readonly TestRunner[] = ECOSYSTEMS_IN_REPORT_ORDER.flatMap((e) => e.testRunners ?? []);

/** What the environment report says when no ecosystem's setup applies. */
export const NOTHING_DETECTED =
  'no ecosystem detected (no package.json, Python project, go.mod, Cargo.toml or pom.xml): nothing to set up';
