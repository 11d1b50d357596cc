/**
 * ensureTemporal when no server answered its first probe, with real processes: a fake
 * `temporal` executable (a shell script) as the dev server we start, and a tiny HTTP/2
 * listener that answers WorkflowService/GetSystemInfo as the server already running (the
 * real probe, serverAnswers, talks gRPC to it). Only the first probes are scripted to miss,
 * as they did on a loaded machine (a stranger run: the CLI started a second dev server
 * that died with "address already in use" and reported that dead child's pid).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentError } from '../../../src/contracts/errors.js';
import { ensureTemporal, serverAnswers } from '../../../src/host/temporal/ensure-temporal.js';
import { tcpPortHeld, type DevServerPorts } from '../../../src/host/temporal/dev-server-start.js';
import { processAlive } from '../../../src/host/temporal/local-worker-identity.js';
import { until } from '../../helpers/until.js';

/** Answers every gRPC call with an empty message and status OK (enough for GetSystemInfo). */
const FRONTEND = `import { createServer } from 'node:http2';
export function answer(port) {
  const server = createServer();
  server.on('stream', (stream) => {
    stream.resume();
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
const at = process.argv.indexOf('--port');
if (at > 0) await answer(Number(process.argv[at + 1]));
`;

interface Fixture {
  readonly dir: string;
  readonly pidFile: string;
  readonly address: string;
  readonly lines: string[];
  ports(script: string, overrides?: Partial<DevServerPorts>): DevServerPorts;
}

async function freePort(): Promise<number> {
  const server = createTcp();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `probe` whose first call says false, as a probe that timed out under load. */
function missingFirst(probe: (address: string) => Promise<boolean>): (address: string) => Promise<boolean> {
  let calls = 0;
  return (address) => (calls++ === 0 ? Promise.resolve(false) : probe(address));
}

async function fixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'dev-server-start-'));
  const pidFile = join(dir, 'child.pid');
  writeFileSync(join(dir, 'frontend.mjs'), FRONTEND);
  const address = `127.0.0.1:${await freePort()}`;
  const lines: string[] = [];
  return {
    dir,
    pidFile,
    address,
    lines,
    ports(script, overrides = {}) {
      const cli = join(dir, 'temporal');
      writeFileSync(cli, `#!/bin/sh\necho $$ > '${pidFile}'\n${script}\n`);
      chmodSync(cli, 0o755);
      return {
        address,
        stateDir: join(dir, 'state'),
        cliPath: () => cli,
        args: () => ['server', 'start-dev', '--port', address.split(':')[1] ?? ''],
        answers: missingFirst((a) => serverAnswers(a)),
        portHeld: (a) => tcpPortHeld(a),
        startTimeoutMs: 20_000,
        settleMs: 300,
        say: (line) => lines.push(line),
        ...overrides,
      };
    },
  };
}

const ADDRESS_IN_USE = `echo "Error: failed starting server: listen tcp $ADDR: bind: address already in use" >&2; exit 1`;

/** The server already running: the fake frontend in this process, on the fixture's address. */
async function alreadyRunning(f: Fixture): Promise<{ close(): void }> {
  const { answer } = (await import(join(f.dir, 'frontend.mjs'))) as {
    answer(port: number): Promise<{ close(): void }>;
  };
  return answer(Number(f.address.split(':')[1]));
}

test('a running server the first probe missed is not started over', { timeout: 30_000 }, async () => {
  const f = await fixture();
  const server = await alreadyRunning(f);
  try {
    const target = await ensureTemporal({}, f.ports(ADDRESS_IN_USE));
    assert.equal(target.started, false);
    assert.equal(target.pid, undefined);
    assert.equal(existsSync(f.pidFile), false, 'no second dev server was started');
    assert.match(f.lines.join('\n'), /already running on 127\.0\.0\.1:\d+ answers/);
  } finally {
    server.close();
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a second dev server that lost the bind is not reported as started', { timeout: 30_000 }, async () => {
  const f = await fixture();
  const server = await alreadyRunning(f);
  try {
    const ports = f.ports(ADDRESS_IN_USE.replace('$ADDR', f.address));
    const target = await ensureTemporal({}, { ...ports, portHeld: missingFirst(ports.portHeld) });
    const childPid = Number(readFileSync(f.pidFile, 'utf8'));
    const said = f.lines.join('\n');
    assert.equal(target.started, false, said);
    assert.equal(target.pid, undefined);
    assert.match(
      said,
      /already running on 127\.0\.0\.1:\d+ answers; the dev server started beside it ended \(exit code 1\)/,
    );
    assert.doesNotMatch(said, /running \(pid/);
    assert.equal(processAlive(childPid), false, 'no child of ours is left');
  } finally {
    server.close();
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test(
  'a second dev server that loses the bind after the address answered is not reported',
  { timeout: 30_000 },
  async () => {
    const f = await fixture();
    const server = await alreadyRunning(f);
    try {
      const ports = f.ports(`sleep 0.3; ${ADDRESS_IN_USE.replace('$ADDR', f.address)}`, { settleMs: 3000 });
      const target = await ensureTemporal({}, { ...ports, portHeld: missingFirst(ports.portHeld) });
      assert.equal(target.started, false, f.lines.join('\n'));
      assert.equal(target.pid, undefined);
    } finally {
      server.close();
      rmSync(f.dir, { recursive: true, force: true });
    }
  },
);

test('nothing answers: fails at once, naming the address and the child output', { timeout: 30_000 }, async () => {
  const f = await fixture();
  try {
    const started = Date.now();
    const ports = f.ports(ADDRESS_IN_USE.replace('$ADDR', f.address));
    const failure = await ensureTemporal({}, ports).then(
      () => assert.fail('expected a failure'),
      (err: unknown) => err,
    );
    assert.ok(AgentError.isInstance(failure) && failure.code === 'TEMPORAL_UNREACHABLE', String(failure));
    assert.match(failure.message, new RegExp(`no Temporal server answers on ${f.address}`));
    assert.match(failure.message, /ended \(exit code 1\)/);
    assert.match(failure.message, new RegExp(`listen tcp ${f.address}: bind: address already in use`));
    assert.ok(Date.now() - started < 10_000, 'not after the whole start timeout');
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a child that never answers is stopped, and the failure says so', { timeout: 30_000 }, async () => {
  const f = await fixture();
  try {
    const ports = f.ports('echo "starting"; exec sleep 30', { startTimeoutMs: 1500 });
    await assert.rejects(ensureTemporal({}, ports), /did not answer within 2 s and was stopped;[^]*starting/);
    const childPid = Number(readFileSync(f.pidFile, 'utf8'));
    await until('the child we started to stop', () => (processAlive(childPid) ? undefined : true), 2_000, 50);
  } finally {
    rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a dev server we started that answers is reported with its pid', { timeout: 30_000 }, async () => {
  const f = await fixture();
  let childPid = 0;
  try {
    const ports = f.ports(`exec '${process.execPath}' '${join(f.dir, 'frontend.mjs')}' "$@"`);
    const target = await ensureTemporal({}, ports);
    childPid = Number(readFileSync(f.pidFile, 'utf8'));
    assert.equal(target.started, true, f.lines.join('\n'));
    assert.equal(target.pid, childPid);
    assert.ok(processAlive(childPid));
    assert.match(f.lines.join('\n'), new RegExp(`local dev server running \\(pid ${childPid}\\)`));
  } finally {
    if (childPid > 0 && processAlive(childPid)) process.kill(-childPid, 'SIGTERM');
    rmSync(f.dir, { recursive: true, force: true });
  }
});
