/**
 * A CMake project that downloads at configure time: `FetchContent_Declare` (how most
 * C++ projects get GoogleTest or Catch2 today), CPM.cmake's `CPMAddPackage` (FetchContent
 * underneath); `ExternalProject_Add` downloads at build time, which setup does not run.
 * The detected test command configures in the sandbox, which has no network, so the
 * download would fail there and the preflight stop the run. Setup
 * therefore configures once, with the network, into the same `build/` the test command
 * uses: the sources land in `build/_deps`, and the offline configure that follows finds
 * them downloaded (their stamps are there) and goes on. `FETCHCONTENT_UPDATES_DISCONNECTED`
 * is a cache variable, so it stays in build/CMakeCache.txt for the later configures: a
 * dependency that follows a branch (`GIT_TAG main`) would otherwise be fetched again, and
 * that fails offline (a tag or a commit is not).
 *
 * Only when git ignores `build/`: otherwise what setup leaves there would be in the
 * agent's `git add -A` and in the delivered diff. Then the step says so and fails; it is
 * optional, so the run goes on and the preflight reports what it saw (docs/environments/
 * c-cmake.md says what to set). The build directory is per worktree: nothing is shared
 * between runs, so a second run downloads again.
 *
 * Without such downloads a CMake or Autotools project fetches nothing: its libraries and
 * tools are the machine's, and the environment phase says so in one line.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ecosystem } from '../../contracts/environment.js';
import type { EcosystemStep } from './ecosystem.js';

/** CMake commands are case-insensitive. */
const DOWNLOADS = /^\s*(FetchContent_Declare|CPMAddPackage|CPMFindPackage|CPMDeclarePackage)\s*\(/im;
const MAX_FILES = 60;

export const CMAKE_CONFIGURE =
  'if git check-ignore -q build/; then cmake -S . -B build -DFETCHCONTENT_UPDATES_DISCONNECTED=ON; ' +
  'else echo "build/ is not ignored by git: not configured during setup (the agent would commit it)" >&2; exit 1; fi';

export interface CMakePlan {
  readonly detected: string;
  readonly steps: readonly EcosystemStep[];
}

const read = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);

export async function detectCMake(dir: string): Promise<CMakePlan | undefined> {
  if ((await read(path.join(dir, 'CMakeLists.txt'))) === undefined) {
    if ((await read(path.join(dir, 'Makefile.am'))) === undefined) return undefined;
    return { detected: nothingToFetch('Makefile.am'), steps: [] };
  }
  const found: Array<{ file: string; command: string }> = [];
  for (const file of await cmakeFiles(dir)) {
    const command = DOWNLOADS.exec((await read(path.join(dir, file))) ?? '')?.[1];
    if (command !== undefined) found.push({ file, command });
  }
  const first = found[0];
  if (first === undefined) return { detected: nothingToFetch('CMakeLists.txt'), steps: [] };
  const why = `cmake: ${first.command} in ${first.file} downloads at configure time`;
  return {
    detected: `${why}: configured once with the network into build/ (when git ignores it)`,
    steps: [
      {
        id: 'cmake-configure',
        ecosystem: Ecosystem.CMake,
        command: CMAKE_CONFIGURE,
        reason: `${why}, and the sandbox is offline`,
        inputs: ['CMakeLists.txt', ...found.map((f) => f.file).filter((f) => f !== 'CMakeLists.txt')],
        caches: ['build/_deps (per worktree)'],
        // Absolute, as every step's: it is checked with existsSync from the worker's directory.
        produces: path.join(dir, 'build', 'CMakeCache.txt'),
        optional: true,
      },
    ],
  };
}

function nothingToFetch(file: string): string {
  return `c/c++: ${file}: nothing to fetch (system libraries and tools come from the machine, or commands.setup)`;
}

/** The root CMakeLists.txt, `*.cmake` in `cmake/`, and CMakeLists.txt files two levels down. */
async function cmakeFiles(dir: string): Promise<string[]> {
  const out = ['CMakeLists.txt'];
  const list = (sub: string) => readdir(path.join(dir, sub), { withFileTypes: true }).catch(() => []);
  for (const e of await list('cmake')) if (e.isFile() && e.name.endsWith('.cmake')) out.push(`cmake/${e.name}`);
  for (const top of await list('.')) {
    if (!top.isDirectory() || top.name.startsWith('.') || ['build', 'cmake', 'node_modules'].includes(top.name))
      continue;
    for (const e of await list(top.name)) {
      if (e.isFile() && e.name === 'CMakeLists.txt') out.push(`${top.name}/CMakeLists.txt`);
      if (e.isDirectory() && !e.name.startsWith('.'))
        for (const f of await list(`${top.name}/${e.name}`))
          if (f.isFile() && f.name === 'CMakeLists.txt') out.push(`${top.name}/${e.name}/CMakeLists.txt`);
    }
    if (out.length >= MAX_FILES) break;
  }
  return out.slice(0, MAX_FILES);
}
