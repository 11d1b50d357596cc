/**
 * The worker pair: the host-queue worker polls at once, the shared one when its bundle
 * is loaded; a failed or late shared worker never leaves the host worker running.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Worker } from '@temporalio/worker';
import { workerPair } from '../../src/worker/worker-pair.js';

/** The part of a Worker the pair uses: run, runUntil, shutdown, getState. */
class FakeWorker {
  state = 'INITIALIZED';
  private stop: () => void = () => undefined;
  constructor(
    private readonly name: string,
    private readonly events: string[],
  ) {}
  getState(): string {
    return this.state;
  }
  run(): Promise<void> {
    this.state = 'RUNNING';
    this.events.push(`${this.name} runs`);
    return new Promise((resolve) => {
      this.stop = () => {
        this.state = 'STOPPED';
        resolve();
      };
    });
  }
  shutdown(): void {
    this.events.push(`${this.name} stops`);
    this.stop();
  }
  async runUntil<R>(until: Promise<R> | (() => Promise<R>)): Promise<R> {
    const running = this.run();
    try {
      return await (typeof until === 'function' ? until() : until);
    } finally {
      this.shutdown();
      await running;
    }
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

function setup() {
  const events: string[] = [];
  const host = new FakeWorker('host', events);
  const shared = new FakeWorker('shared', events);
  const creating = deferred<Worker>();
  const pair = workerPair(host as unknown as Worker, creating.promise, 'q@host');
  return { events, host, shared, creating, pair };
}

test('the host worker polls before the shared one is created; ready once both poll', async () => {
  const { events, host, shared, creating, pair } = setup();
  let ready = false;
  void pair.ready.then(() => (ready = true));
  const running = pair.run();
  await tick();
  assert.equal(host.getState(), 'RUNNING', 'the host queue is served while the bundle loads');
  assert.equal(ready, false);
  creating.resolve(shared as unknown as Worker);
  await tick();
  assert.equal(ready, true);
  assert.equal(shared.getState(), 'RUNNING');
  pair.shutdown();
  await running;
  assert.deepEqual(events, ['host runs', 'shared runs', 'host stops', 'shared stops']);
});

test('a shared worker that cannot be created fails run() and stops the host worker', async () => {
  const { host, creating, pair } = setup();
  const running = pair.run();
  await tick();
  creating.reject(new Error('bundle broken'));
  await assert.rejects(running, /bundle broken/);
  await assert.rejects(pair.ready, /bundle broken/);
  assert.equal(host.getState(), 'STOPPED');
});

test('shut down before the shared worker exists: it is run to a stop when it comes, run() ends', async () => {
  const { events, shared, creating, pair } = setup();
  const running = pair.run();
  await tick();
  pair.shutdown();
  creating.resolve(shared as unknown as Worker);
  await running;
  assert.equal(shared.getState(), 'STOPPED', 'a created worker is stopped, so the connection can close');
  assert.deepEqual(events, ['host runs', 'host stops', 'shared runs', 'shared stops']);
});

test('runUntil serves the host queue at once and returns what the awaited promise gives', async () => {
  const { host, shared, creating, pair } = setup();
  const result = pair.runUntil(async () => 42);
  await tick();
  assert.equal(host.getState(), 'RUNNING');
  creating.resolve(shared as unknown as Worker);
  assert.equal(await result, 42);
  assert.equal(host.getState(), 'STOPPED');
  assert.equal(shared.getState(), 'STOPPED');
});
