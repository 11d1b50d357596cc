/**
 * Signals and queries of the watch workflow. `stop` ends the watcher after its current
 * poll; the runs it started go on (they are abandoned children, managed by their own
 * Workflow IDs). Cancelling the watcher through Temporal does the same.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { WatchProgress } from '../../contracts/watch.js';

export const watchProgressQuery = defineQuery<WatchProgress>('watchProgress');
export const stopWatchSignal = defineSignal<[]>('stop');
