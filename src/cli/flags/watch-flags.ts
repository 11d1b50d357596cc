/**
 * `watch`'s flags: the trigger label, how many runs at once, the poll interval and the
 * issue source; the label and mention may also come from `.agent/config.json` (`watch`).
 * Flags win over the file.
 */
import type { DeliveryMode } from '../../contracts/delivery.js';
import { UsageError } from '../../contracts/errors.js';
import type { RepoConfigFile } from '../../contracts/repo-config.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import {
  DEFAULT_MENTION,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WATCH_LABEL,
  MAX_WATCH_CONCURRENCY,
} from '../../contracts/watch.js';
import { deliveryOf } from './delivery-flag.js';
import { optionalNumber, optionalString, type ParsedFlags } from './parse-flags.js';

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,49}$/;

export interface WatchFlags {
  readonly label: string;
  readonly mention: string;
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  readonly issueSource: IssueSourceKind;
  readonly delivery: DeliveryMode;
  readonly ciRounds?: number;
}

export function parseWatchFlags(flags: ParsedFlags, config: RepoConfigFile): WatchFlags {
  const label = optionalString(flags, 'label') ?? config.watch?.label ?? DEFAULT_WATCH_LABEL;
  if (!LABEL.test(label))
    throw new UsageError(
      `--label must be a label name (letters, digits, . _ : / - and spaces, up to 50), got ${JSON.stringify(label)}`,
      '--label',
    );
  const concurrency = optionalNumber(flags, 'concurrency', { integer: true }) ?? 2;
  if (concurrency < 1 || concurrency > MAX_WATCH_CONCURRENCY)
    throw new UsageError(`--concurrency must be 1..${MAX_WATCH_CONCURRENCY}, got ${concurrency}`, '--concurrency');
  const seconds = optionalNumber(flags, 'poll-interval') ?? DEFAULT_POLL_INTERVAL_MS / 1000;
  if (!(seconds >= 1 && seconds <= 3600))
    throw new UsageError(`--poll-interval must be 1..3600 seconds, got ${seconds}`, '--poll-interval');
  const source = optionalString(flags, 'issues') ?? config.issues ?? 'github';
  if (source !== 'local' && source !== 'github')
    throw new UsageError(`--issues must be local or github, got "${source}"`, '--issues');
  return {
    label,
    mention: config.watch?.mention ?? DEFAULT_MENTION,
    concurrency,
    pollIntervalMs: Math.round(seconds * 1000),
    issueSource: source,
    delivery: deliveryOf(flags, source),
    ...(config.watch?.ciRounds === undefined ? {} : { ciRounds: config.watch.ciRounds }),
  };
}
