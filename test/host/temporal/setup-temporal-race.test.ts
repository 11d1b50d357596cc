/**
 * Two processes provisioning the Temporal CLI at once (a fresh installed copy: a worker
 * and a start-run started side by side, both finding no dev server) must both get it.
 * Seen from outside: `start-run` failed with TEMPORAL_CLI_MISSING ("install python3 …")
 * on a machine with python3, because both ran `python -m venv` and `pip install` into
 * the same venv and the second pip failed while the first was installing.
 *
 * The python3 here is a stand-in whose pip fails, as the real one did, when another
 * install into the same venv is under way; no network, no real temporal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(process.cwd(), 'scripts', 'setup-temporal.mjs');

const FAKE_PYTHON = `#!/bin/sh
# python3 -m venv DIR: a venv whose pip installs a fake temporal, failing when another install runs.
[ "$1" = "-m" ] && [ "$2" = "venv" ] || exit 2
mkdir -p "$3/bin"
cat > "$3/bin/pip" <<PIP
#!/bin/sh
if ! mkdir "$3/.installing" 2>/dev/null; then echo "pip: another install in progress" >&2; exit 1; fi
sleep 1
printf '#!/bin/sh\\\\necho "temporal version 1.9.1 (fake)"\\\\n' > "$3/bin/temporal"
chmod +x "$3/bin/temporal"
rmdir "$3/.installing"
PIP
chmod +x "$3/bin/pip"
`;

function provision(tools: string, bin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { PATH: `${bin}:/usr/bin:/bin`, ISSUE_AGENT_TOOLS_DIR: tools },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 45_000,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

function fakePython(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'python3'), FAKE_PYTHON);
  chmodSync(join(bin, 'python3'), 0o755);
  return bin;
}

test('two processes provisioning at once both get the CLI', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'setup-temporal-race-'));
  try {
    const bin = fakePython(dir);
    const tools = join(dir, 'tools');
    const results = await Promise.all([provision(tools, bin), provision(tools, bin)]);
    for (const r of results) {
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /venv\/bin\/temporal/, r.out);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock left by a process that is gone is taken over', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'setup-temporal-race-'));
  try {
    const bin = fakePython(dir);
    const tools = join(dir, 'tools');
    const lock = join(tools, '.provision.lock');
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'pid'), '2147483646');
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const r = await provision(tools, bin);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /venv\/bin\/temporal/, r.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
