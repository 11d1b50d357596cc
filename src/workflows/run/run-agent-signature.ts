/**
 * The run workflow's signature, for the parents that start it as a child (batch,
 * pipeline) by its type name 'runAgentWorkflow'. Typed here rather than imported from
 * run-agent.ts so the children's folders do not import the root that bundles them.
 */
import type { RunInput, RunResult } from '../../contracts/run.js';

export type RunAgentWorkflow = (input: RunInput) => Promise<RunResult>;
