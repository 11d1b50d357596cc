/**
 * Run inside a sandbox (a validator running this harness's own tests): prints, as JSON,
 * which isolation the inner harness detects there and what it warned, so a test can check
 * that a seccomp filter denying unshare makes the probe fall back, not crash.
 */
import { detectIsolation } from '../../../src/activities/tools/process-isolation.js';

const warnings: string[] = [];
detectIsolation((message) => warnings.push(message)).then(
  (isolation) =>
    process.stdout.write(
      `${JSON.stringify({ mode: isolation.mode, seccomp: isolation.seccomp !== undefined, warnings })}\n`,
    ),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
