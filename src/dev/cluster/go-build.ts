/**
 * The cluster's binaries, built once per pinned version with `go install` from the Go
 * module proxy (no registry ships a Temporal server binary) and cached under .tools/:
 *   .tools/temporal-server/<v>/temporal-server, temporal-sql-tool
 *   .tools/temporal-ui/<v>/temporal-ui-server
 * A build goes to a scratch directory renamed into place only when complete, so an
 * interrupted build is never taken for a cached one. On a machine that built them before,
 * Go's own caches (GOCACHE, GOMODCACHE) make a rebuild in a fresh clone take seconds; a
 * new machine pays the full build (about 5 min for the server on 2 cores).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { serverToolsDir, TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION, uiToolsDir } from './cluster-settings.js';

export interface ClusterBinaries {
  readonly server: string;
  readonly sqlTool: string;
  readonly uiServer: string;
}

interface GoBuild {
  readonly what: string;
  readonly dir: string;
  /** `go install` package path → the name the binary is given in `dir`. */
  readonly packages: ReadonlyArray<{ readonly pkg: string; readonly built: string; readonly name: string }>;
}

const SERVER_BUILD: GoBuild = {
  what: `the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL schema tool`,
  dir: serverToolsDir(),
  packages: [
    { pkg: `go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`, built: 'server', name: 'temporal-server' },
    {
      pkg: `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
      built: 'sql',
      name: 'temporal-sql-tool',
    },
  ],
};

const UI_BUILD: GoBuild = {
  what: `the Temporal Web UI server ${TEMPORAL_UI_VERSION}`,
  dir: uiToolsDir(),
  packages: [
    {
      pkg: `github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_VERSION}`,
      built: 'server',
      name: 'temporal-ui-server',
    },
  ],
};

export function clusterBinaries(): ClusterBinaries {
  return {
    server: join(SERVER_BUILD.dir, 'temporal-server'),
    sqlTool: join(SERVER_BUILD.dir, 'temporal-sql-tool'),
    uiServer: join(UI_BUILD.dir, 'temporal-ui-server'),
  };
}

const built = (b: GoBuild): boolean => b.packages.every((p) => existsSync(join(b.dir, p.name)));

/** Builds what is missing (both builds, one after the other: each takes both cores). */
export async function ensureClusterBinaries(say: (line: string) => void): Promise<ClusterBinaries> {
  for (const build of [SERVER_BUILD, UI_BUILD]) {
    if (built(build)) continue;
    await goInstall(build, say);
  }
  return clusterBinaries();
}

async function goInstall(build: GoBuild, say: (line: string) => void): Promise<void> {
  const scratch = `${build.dir}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const logFile = join(scratch, 'go-install.log');
  say(`building ${build.what} with go install (cached in ${build.dir}; the first build takes minutes)`);
  const started = Date.now();
  const out = openSync(logFile, 'w');
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn('go', ['install', ...build.packages.map((p) => p.pkg)], {
      env: {
        ...process.env,
        GOBIN: scratch,
        // The pinned modules have no vendor directory: resolve from the module proxy.
        GOFLAGS: [process.env.GOFLAGS, '-mod=mod'].filter(Boolean).join(' '),
      },
      cwd: scratch,
      stdio: ['ignore', out, out],
    });
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  }).catch((err: unknown) => {
    throw new AgentError('CLUSTER_FAILED', `could not run go to build ${build.what}: ${String(err)}`, {
      where: 'PATH',
      expected: 'a Go toolchain (go 1.26.8 or newer; the module proxy reachable), e.g. apt-get install golang',
    });
  });
  closeSync(out);
  if (code !== 0) {
    const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
    throw new AgentError('CLUSTER_FAILED', `go install of ${build.what} failed (exit ${code}):\n${tail}`, {
      where: logFile,
      expected: 'a successful build; the full log is in that file',
    });
  }
  for (const p of build.packages) renameSync(join(scratch, p.built), join(scratch, p.name));
  mkdirSync(dirname(build.dir), { recursive: true });
  rmSync(build.dir, { recursive: true, force: true });
  renameSync(scratch, build.dir);
  say(`built ${build.what} in ${Math.round((Date.now() - started) / 1000)} s`);
}
