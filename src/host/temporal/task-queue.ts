/**
 * The task queue runs are served on when `TEMPORAL_TASK_QUEUE` is not set: the client
 * starts runs there and the worker polls it, so both read it from this one place.
 */
export const DEFAULT_TASK_QUEUE = 'issue-agent';
