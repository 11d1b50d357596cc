#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: bundles dist/workflows/index.js once into
// dist/workflow-bundle.js, which the compiled worker loads instead of running
// webpack at every start (src/worker/workflow-source.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

const workflowsPath = fileURLToPath(new URL('../dist/workflows/index.js', import.meta.url));
const out = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };
const { code } = await bundleWorkflowCode({ workflowsPath, logger: quiet });
writeFileSync(out, code);
process.stdout.write(`workflow bundle: ${out} (${Math.round(code.length / 1024)} KiB)\n`);
