/**
 * The Python steps of the plan: a virtualenv for this worktree (outside it, in the
 * harness state, so it is neither committed nor shown as the user's), the project
 * installed from the WORKTREE in editable mode with its test extras, its PEP 735 test
 * dependency group and requirements files, and pytest when the tests use it but the
 * project does not declare it. `uv` when on PATH (copying, never hardlinking from its
 * cache; groups by its `--group`), else `python -m venv` + pip (groups as requirement
 * strings: pip < 25.1 has no `--group`, and pip evaluates their markers itself).
 * A Hatch project's test env dependencies and tox.ini `[testenv]` deps are added as
 * requirement strings and files (hatch-test-env, tox-test-env).
 * A project with a uv, Poetry or PDM lock gets its manager's plan instead (python-locked-setup.ts).
 */
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { q, type EcosystemStep, type PythonTools } from './ecosystem.js';
import { lockedPythonPlan } from './python-locked-setup.js';
import { readManagedProject, type PythonManager } from './python-manager.js';
import { readPythonProject } from './python-project.js';

export interface PythonPlan {
  readonly detected: readonly string[];
  readonly steps: readonly EcosystemStep[];
  readonly venv: string;
  /** A locked project's manager, fetched into the tools dir (uv: on the sandbox's PATH). */
  readonly tool?: { readonly manager: PythonManager; readonly binDir: string; readonly prefix: string };
}

/** Whether `pip --version` output is pip 22.3 or later. */
export function supportsPipPython(pipVersionOutput: string): boolean {
  const match = /^pip (\d+)\.(\d+)/m.exec(pipVersionOutput);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 22 || (major === 22 && minor >= 3);
}

export async function detectPython(options: {
  readonly dir: string;
  readonly venv: string;
  readonly caches: CacheLayout;
  readonly tools: PythonTools;
}): Promise<PythonPlan | undefined> {
  const { dir, venv, caches, tools } = options;
  const project = await readPythonProject(dir);
  if (project === undefined) return undefined;
  // Only a Python project without uv pays for the pip probe (a process).
  const pip = tools.uv ? undefined : await tools.pipVersion?.();
  const externalPip = pip !== undefined && supportsPipPython(pip);
  const managed = await readManagedProject(dir);
  if (managed !== undefined)
    return { ...lockedPythonPlan({ managed, project, venv, python: tools.python, caches }), venv };
  const py = `${venv}/bin/python`;
  const detected = [
    `python: ${project.files.join(', ')}: a virtualenv ${venv} for this worktree (${tools.uv ? 'uv' : `${tools.python} -m venv + pip`})`,
  ];
  const targets: string[] = [];
  if (project.installable) {
    const extras = project.extras.length > 0 ? `[${project.extras.join(',')}]` : '';
    targets.push('-e', q(`${dir}${extras}`));
    detected.push(
      `python: the project installed editable from the worktree${extras ? ` with extras ${project.extras.join(', ')}` : ' (no test/tests/testing/dev extra declared)'}`,
    );
  }
  if (project.groups.length > 0) {
    if (tools.uv) for (const group of project.groups) targets.push('--group', q(group));
    else targets.push(...project.groupRequirements.map(q));
    const others = project.declaredGroups.filter((g) => !project.groups.includes(g));
    detected.push(
      `python: pyproject [dependency-groups] ${project.groups.join(', ')} installed (${tools.uv ? 'uv --group' : `as requirements: ${project.groupRequirements.join(', ') || 'none'}`})${others.length > 0 ? `; not ${others.join(', ')}` : ''}`,
    );
  } else if (project.declaredGroups.length > 0) {
    detected.push(
      `python: pyproject [dependency-groups] ${project.declaredGroups.join(', ')}: none named test/tests/testing/dev, none installed`,
    );
  }
  if (project.hatch !== undefined) {
    // Hatch is not run (it makes its own envs): its test env's dependencies go into this venv.
    targets.push(...project.hatch.dependencies.map(q));
    detected.push(
      `python: pyproject [tool.hatch.envs.${project.hatch.env}] dependencies installed without Hatch: ${project.hatch.dependencies.join(', ') || 'none'}${project.hatch.features.length > 0 ? ` (features ${project.hatch.features.join(', ')})` : ''}`,
    );
  }
  if (project.tox !== undefined) {
    // tox is not run (it builds its own envs with the network): [testenv] deps go into this venv.
    const { requirements, requirementFiles, constraintFiles, skipped } = project.tox;
    targets.push(...requirements.map(q));
    for (const f of requirementFiles.filter((f) => !project.requirements.includes(f)))
      targets.push('-r', q(`${dir}/${f}`));
    for (const f of constraintFiles) targets.push('-c', q(`${dir}/${f}`));
    detected.push(
      `python: tox.ini [testenv] deps installed without tox: ${[...requirements, ...requirementFiles.map((f) => `-r ${f}`), ...constraintFiles.map((f) => `-c ${f}`)].join(', ') || 'none'}${skipped.length > 0 ? `; not taken: ${skipped.join(', ')}` : ''}`,
    );
  }
  for (const file of project.requirements) targets.push('-r', q(`${dir}/${file}`));
  if (project.requirements.length > 0) detected.push(`python: requirements ${project.requirements.join(', ')}`);
  if (project.usesPytest && !project.declaresPytest) {
    targets.push('pytest');
    detected.push('python: the tests use pytest but the project does not declare it: pytest added to the venv');
  }
  const venvStep: EcosystemStep = {
    id: 'python-venv',
    ecosystem: Ecosystem.Python,
    command: tools.uv
      ? `uv venv --python ${q(tools.python)} ${q(venv)}`
      : `${q(tools.python)} -m venv${externalPip ? ' --without-pip' : ''} ${q(venv)}`,
    reason: `python: create the virtualenv ${venv}`,
    inputs: [],
    caches: [],
    produces: py,
  };
  if (targets.length === 0) return { detected, steps: [venvStep], venv };
  const install = tools.uv
    ? `uv pip install --python ${q(py)} ${targets.join(' ')}`
    : externalPip
      ? `${q(tools.python)} -m pip --python ${q(py)} install ${targets.join(' ')}`
      : `${q(py)} -m pip install ${targets.join(' ')}`;
  const installStep: EcosystemStep = {
    id: 'python-install',
    ecosystem: Ecosystem.Python,
    command: install,
    reason: `python: install ${targets.filter((t) => !t.startsWith('-')).length} target(s) into the venv`,
    inputs: project.files,
    caches: [tools.uv ? `uv cache ${caches.uv}` : `pip cache ${caches.pip}`],
    produces: py,
  };
  return { detected, steps: [venvStep, installStep], venv };
}
