/**
 * A worker stand-in for the crash test: runs the boundary hook for the input in
 * BOUNDARY_INPUT (JSON) with deps built from its own environment, prints the report.
 * The test SIGKILLs it mid-hook.
 */
import type { BoundaryHookInput } from '../../../src/contracts/activities.js';
import { boundaryDepsFromEnv, runBoundaryHook } from '../../../src/activities/deliver/run-boundary-hook.js';

const input = JSON.parse(process.env['BOUNDARY_INPUT'] ?? '{}') as BoundaryHookInput;
const report = await runBoundaryHook(boundaryDepsFromEnv(process.env), input);
process.stdout.write(`${JSON.stringify(report)}\n`);
