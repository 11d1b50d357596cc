/**
 * The Python package manager a locked project needs (uv, Poetry, PDM), in a pinned version,
 * fetched from PyPI with the interpreter's own pip into the shared tools dir
 * (`<cache>/tools/uv-0.13.9`, `<cache>/tools/poetry-2.5.1`), never globally, once per
 * version. The step is one shell command that does nothing when the tool is there:
 *
 * - uv's wheel carries a static binary: installed with `pip --prefix` into a temp dir
 *   renamed into place (two runs fetching it at once both succeed);
 * - Poetry and PDM are Python applications: a venv of its own at its final path (a venv cannot
 *   be moved), marked complete only once its install succeeded (a half-made one is redone).
 *
 * The pinned versions are the ones the tests run (a project's exact `[tool.uv]
 * required-version` is fetched instead); `commands.setup` overrides the whole plan.
 */
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { q, type EcosystemStep } from './ecosystem.js';
import { PythonManager } from './python-manager.js';

export const PYTHON_TOOL_VERSIONS = {
  [PythonManager.Uv]: '0.13.9',
  [PythonManager.Poetry]: '2.5.1',
  [PythonManager.Pdm]: '2.29.4',
} as const satisfies Record<PythonManager, string>;

export interface PythonTool {
  /** Where the program is (`<prefix>/bin/uv`). */
  readonly program: string;
  /** The dir with the program alone (on the sandbox's PATH) and its install prefix (read-only there). */
  readonly binDir: string;
  readonly prefix: string;
  readonly step: EcosystemStep;
}

/**
 * `-I`: the step runs in the worktree, and `python -m` would put it first on sys.path (a
 * `pip.py` or `venv/` of the repository would run with the shared tools dir writable);
 * `PIP_CONFIG_FILE=/dev/null`: no pip.conf an earlier step left in the setup HOME.
 */
const PIP = '-I -m pip install --quiet --disable-pip-version-check --no-warn-script-location';
const NO_PIP_CONFIG = 'PIP_CONFIG_FILE=/dev/null';

export function pythonToolStep(
  manager: PythonManager,
  python: string,
  caches: CacheLayout,
  version: string = PYTHON_TOOL_VERSIONS[manager],
): PythonTool {
  const prefix = path.join(caches.tools, `${manager}-${version}`);
  const program = path.join(prefix, 'bin', manager);
  // Poetry's and PDM's bin hold their venv's python and pip too: the sandbox gets a dir with the tool alone.
  const binDir = path.join(prefix, manager === PythonManager.Uv ? 'bin' : 'exposed');
  const command = installCommand(manager, { python: q(python), prefix: q(prefix), version });
  return {
    program,
    binDir,
    prefix,
    step: {
      id: `python-tool-${manager}`,
      ecosystem: Ecosystem.Python,
      command,
      reason: `python: ${manager} ${version} from PyPI into ${prefix} (pip of ${python}; kept for later runs)`,
      inputs: [],
      caches: [`${manager} ${version} ${prefix}`],
      produces: program,
      installsTool: true,
    },
  };
}

function installCommand(
  manager: PythonManager,
  { python, prefix, version }: { python: string; prefix: string; version: string },
): string {
  switch (manager) {
    case PythonManager.Uv: {
      const temp = `${prefix}.tmp-$$`;
      return (
        `test -x ${prefix}/bin/uv || { ${NO_PIP_CONFIG} ${python} ${PIP} --prefix ${temp} uv==${version} && ` +
        `{ mv -T ${temp} ${prefix} 2>/dev/null || rm -rf ${temp}; }; }`
      );
    }
    case PythonManager.Poetry:
    case PythonManager.Pdm:
      // PDM 2.29 does not cap hishel, and hishel 2 dropped the module it imports.
      return venvAppCommand({
        python,
        prefix,
        name: manager,
        requirements: manager === PythonManager.Pdm ? `pdm==${version} 'hishel<2'` : `poetry==${version}`,
      });
  }
}

/**
 * A Python application in a venv of its own at its final path (a venv cannot be moved),
 * marked complete only once its install succeeded (a half-made one is redone), its
 * program alone in `<prefix>/exposed` (its bin holds the venv's python and pip too).
 */
export function venvAppCommand(options: {
  readonly python: string;
  readonly prefix: string;
  readonly name: string;
  readonly requirements: string;
}): string {
  const { python, prefix, name } = options;
  const done = `${prefix}/.complete`;
  return (
    `test -f ${done} || { rm -rf ${prefix} && ${python} -I -m venv ${prefix} && ` +
    `${NO_PIP_CONFIG} ${prefix}/bin/python ${PIP} ${options.requirements} && mkdir ${prefix}/exposed && ` +
    `ln -s ../bin/${name} ${prefix}/exposed/${name} && touch ${done}; }`
  );
}
