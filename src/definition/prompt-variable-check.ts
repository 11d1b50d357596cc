/**
 * One rule for `validate` and `start-run` (issue 37): every `{uv-x}` a prompt uses (and
 * every name a step declares in `uvVariables`) must have a value at run time, or the
 * run fails at that step with PROMPT_RESOLUTION after tokens were spent. What counts is
 * whether the run can get there:
 *
 * - the system prompt and every step the run can reach from its entry
 *   (reachable-steps.ts): an unbound variable is an error, before anything is created;
 * - a step the run never reaches (upstream agents keep one flow per verdict type in one
 *   registry): a warning;
 * - a `section.*` fragment is offered to every step prompt and inserted only when all
 *   its declared `uvVariables` have values: one that can apply with an unbound
 *   placeholder is an error, one that never applies a warning.
 *
 * The loader runs this as a rule (every declared parameter counts as bound), so
 * `validate` and every run's load say the same; `start-run` runs it again with the
 * parameters this run has values for. The sources are prompt-variable-sources.ts.
 */
import path from 'node:path';
import type { ResolvePromptInput } from '../contracts/activities.js';
import { CompletionType } from '../contracts/completion-types.js';
import type { AgentDefinition } from '../contracts/definition.js';
import { AgentError } from '../contracts/errors.js';
import { DefinitionError } from './definition-error.js';
import { adaptationOf } from '../contracts/step-inputs.js';
import { loadPromptTemplate } from './c3l/resolve-c3l-prompt.js';
import { placeholderNames } from './c3l/substitute-uv.js';
import { isError, problem, warning, type Problem } from './problem.js';
import {
  HARNESS_SYSTEM_VARIABLES,
  inputVariables,
  stepVariableSources,
  type PromptVariableView,
  variableViewOf,
} from './prompt-variable-sources.js';
import { stepsARunReaches } from './reachable-steps.js';

const CODE = 'PROMPT_VARIABLE_UNBOUND';
const RULE = 'prompt-variables-bound';
const STEP_SOURCES =
  'an agent parameter, a harness variable, a handoff (<stepId>_<key>), a section or an input of the step';
const FIX =
  'declare it as a parameter in agent.json, add a handoffFields entry that sets it, or remove it from the prompt';

interface Check {
  readonly view: PromptVariableView;
  readonly unset: (name: string) => boolean;
  /** Why `name` has no value, for a step prompt or a section. */
  readonly why: (name: string) => string;
}

/** Problems for every unbound variable; `given`: the parameters this run has values for. */
export async function promptVariableProblems(
  view: PromptVariableView,
  given?: ReadonlySet<string>,
): Promise<Problem[]> {
  const sources = stepVariableSources(view, given);
  const why = (name: string): string => {
    const spec = view.parameters[name];
    if (spec === undefined || given === undefined || given.has(name)) return `not ${STEP_SOURCES}`;
    return `agent parameter '${name}' has no value in this run: give ${spec.cli} VALUE or --param ${name}=VALUE, or declare a default`;
  };
  const check: Check = { view, unset: (name) => !sources.has(name), why };
  return [...(await systemProblems(view)), ...(await stepProblems(check)), ...(await sectionProblems(check))];
}

/**
 * `start-run`'s check, before it creates anything: the loaded definition with the
 * parameters this run has values for (given or defaulted). Throws DefinitionError
 * (CONFIG_INVALID) naming the step, the prompt file and the variable.
 */
export async function assertRunVariablesBound(
  definition: AgentDefinition,
  parameters: Readonly<Record<string, unknown>>,
): Promise<void> {
  const given = new Set(Object.keys(parameters).filter((k) => parameters[k] !== undefined));
  const errors = (await promptVariableProblems(variableViewOf(definition), given)).filter(isError);
  if (errors.length > 0) throw new DefinitionError(definition.agentDir, errors);
}

async function systemProblems(view: PromptVariableView): Promise<Problem[]> {
  const found = await template(view, { kind: 'system', systemPromptPath: view.systemPromptPath });
  if (found === undefined) return [];
  return found.names
    .filter((n) => !HARNESS_SYSTEM_VARIABLES.includes(n))
    .map((name) =>
      problem({
        ...at(found.file),
        message: `the system prompt uses {uv-${name}}, which has no value: it is not one the system prompt gets`,
        expected: `one of ${HARNESS_SYSTEM_VARIABLES.join(', ')}; ${FIX}`,
      }),
    );
}

async function stepProblems({ view, unset, why }: Check): Promise<Problem[]> {
  const problems: Problem[] = [];
  const entry = view.entryStep;
  const reached = stepsARunReaches(view.steps, entry, view.verdictType !== CompletionType.StepMachine);
  for (const step of view.steps.values()) {
    if (step.runner !== undefined) continue;
    const { stepId, c2, c3, edition } = step;
    const found = await template(view, { kind: 'step', stepId, c2, c3, edition, ...adaptationOf(view, step) });
    if (found === undefined) continue;
    const own = new Set(inputVariables(step));
    const names = [...new Set([...found.names, ...step.uvVariables])].filter((n) => unset(n) && !own.has(n));
    for (const name of names) {
      const text = `step '${stepId}' uses {uv-${name}}, which has no value (${why(name)})`;
      problems.push(
        reached.has(stepId)
          ? problem({
              ...at(found.file),
              message: `${text}; the run reaches this step from its entry '${entry}' and would fail there`,
              expected: `a value for {uv-${name}}: ${FIX}`,
            })
          : warning({
              ...at(found.file),
              message: `${text}; the run never reaches this step from its entry '${entry}'`,
              expected: `a value for {uv-${name}} before a flow reaches the step: ${FIX}`,
            }),
      );
    }
  }
  return problems;
}

async function sectionProblems({ view, unset, why }: Check): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const section of view.sections) {
    const { stepId, c2, c3, edition, adaptation } = section;
    const found = await template(view, {
      kind: 'step',
      stepId,
      c2,
      c3,
      edition,
      ...(adaptation === undefined ? {} : { adaptation }),
    });
    if (found === undefined) continue;
    const missing = section.uvVariables.filter(unset);
    for (const name of [...new Set([...found.names, ...section.uvVariables])].filter(unset)) {
      const text = `section '${stepId}' uses {uv-${name}}, which has no value (${why(name)})`;
      problems.push(
        missing.length === 0
          ? problem({
              ...at(found.file),
              message: `${text}; the section applies (its uvVariables have values), so every step prompt would fail`,
              expected: `a value for {uv-${name}}, or {uv-${name}} in the section's uvVariables: ${FIX}`,
            })
          : warning({
              ...at(found.file),
              message: `${text}; the section never applies (its uvVariables ${missing.join(', ')} have no value)`,
              expected: `a value for {uv-${name}} if the section should ever apply`,
            }),
      );
    }
  }
  return problems;
}

function at(file: string): { code: string; file: string; pointer: string; rule: string } {
  return { code: CODE, file, pointer: '', rule: RULE };
}

/** The placeholders of a prompt file and its agentDir-relative name; undefined when it does not resolve. */
async function template(
  view: PromptVariableView,
  part: Pick<ResolvePromptInput, 'kind' | 'stepId' | 'c2' | 'c3' | 'edition' | 'adaptation' | 'systemPromptPath'>,
): Promise<{ names: string[]; file: string } | undefined> {
  try {
    const loaded = await loadPromptTemplate({
      agentDir: view.agentDir,
      promptsDir: view.promptsDir,
      c1: view.c1,
      required: [],
      variables: {},
      ...part,
    });
    return { names: placeholderNames(loaded.template), file: relative(view.agentDir, loaded.absPath) };
  } catch (error) {
    // A prompt file that does not resolve is reported by its own rule (PROMPT_FILE_MISSING).
    if (AgentError.isInstance(error)) return undefined;
    throw error;
  }
}

function relative(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}
