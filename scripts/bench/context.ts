/**
 * What every phase runs against: the private dev server and a client on it, the bundled
 * run workflow, the bench's sizes and options, and the figures of the phases run before
 * (the overhead is read against the floor, for one).
 */
import type { Client } from '@temporalio/client';
import type { PrivateDevServer } from './bench-server.js';
import type { Config } from './config.js';
import type { Figures } from './figures.js';

export interface BenchContext {
  /** The bench's temp directory (the server's database, bundles, artifacts). */
  readonly dir: string;
  readonly server: PrivateDevServer;
  readonly client: Client;
  /** The run workflow's bundle, which every run worker loads. */
  readonly bundlePath: string;
  readonly cfg: Config;
  /** --profile DIR: CPU profiles of the run workers (stopped with SIGTERM so that V8 writes them). */
  readonly profileDir: string | undefined;
  /** The figures so far; a phase returns its own rather than writing here. */
  readonly results: Readonly<Figures>;
}
