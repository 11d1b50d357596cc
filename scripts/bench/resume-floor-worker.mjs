#!/usr/bin/env node
// The resume floor (npm run bench, resume phase): the least any replacement worker does
// before it can take a retried activity: start Node, import the Temporal SDK, connect,
// create an activity-only worker and poll. Plain JavaScript, as an installed worker runs.
// Prints "READY <ms since process start>" when it polls; stops on SIGTERM.
import { performance } from 'node:perf_hooks';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
const worker = await Worker.create({
  connection,
  taskQueue: `resume-floor-${process.pid}`,
  activities: { noop: async () => undefined },
});
const running = worker.run();
process.stdout.write(`READY ${Math.round(performance.now())}\n`);
process.once('SIGTERM', () => worker.shutdown());
await running;
await connection.close();
