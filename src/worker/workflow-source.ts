/**
 * Where the worker gets the workflow code. Under tsx (src/) the TypeScript sources
 * are bundled at start; from the compiled package (dist/) the JavaScript is bundled,
 * or the bundle prebuilt by `npm run build` (dist/workflow-bundle.js) is loaded as is,
 * which saves the seconds webpack takes at every start. Under tsx, a bundle of these very
 * sources may be handed in by path (ISSUE_AGENT_WORKFLOW_BUNDLE): the test runner builds
 * one per content of src/ (test/helpers/workflow-bundle-cache.ts) for every worker the suite
 * starts, instead of webpack running in each of them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when this module runs from compiled JavaScript (dist/), false under tsx. */
export const COMPILED = import.meta.url.endsWith('.js');

export const WORKFLOWS_PATH = fileURLToPath(new URL(`../workflows/index.${COMPILED ? 'js' : 'ts'}`, import.meta.url));

/** Written by scripts/bundle-workflows.mjs after tsc; only meaningful next to dist/. */
export const PREBUILT_BUNDLE_PATH = fileURLToPath(new URL('../workflow-bundle.js', import.meta.url));

export type WorkflowSource = { readonly workflowsPath: string } | { readonly workflowBundle: { codePath: string } };

/**
 * The prebuilt bundle when running compiled and no plugin needs to add workflow
 * interceptors to the bundle (tracing does); else ISSUE_AGENT_WORKFLOW_BUNDLE's on the
 * same condition; otherwise the path to bundle now.
 */
export function workflowSource(
  options: { readonly pluginsChangeBundle: boolean },
  env: NodeJS.ProcessEnv = process.env,
): WorkflowSource {
  if (options.pluginsChangeBundle) return { workflowsPath: WORKFLOWS_PATH };
  // Compiled JavaScript with no prebuilt bundle beside it is the test suite's compiled tree
  // (scripts/compiled-test-tree.mjs): it takes the handed-in bundle as tsx does.
  const candidates = COMPILED
    ? [PREBUILT_BUNDLE_PATH, env.ISSUE_AGENT_WORKFLOW_BUNDLE]
    : [env.ISSUE_AGENT_WORKFLOW_BUNDLE];
  const prebuilt = candidates.find((path) => path !== undefined && path !== '' && existsSync(path));
  if (prebuilt !== undefined) return { workflowBundle: { codePath: prebuilt } };
  return { workflowsPath: WORKFLOWS_PATH };
}
