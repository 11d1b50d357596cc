/**
 * start-batch's flags: which issues (label, explicit list or query), how many at once,
 * the issue source and delivery, and the batch's Workflow ID derived from them.
 */
import { createHash } from 'node:crypto';
import { MAX_BATCH_CONCURRENCY, type BatchSelection } from '../../contracts/batch.js';
import type { DeliveryMode } from '../../contracts/delivery.js';
import { UsageError } from '../../contracts/errors.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import { deliveryOf } from './delivery-flag.js';
import { optionalNumber, optionalString, type ParsedFlags } from './parse-flags.js';

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,49}$/;

export interface BatchFlags {
  readonly selection: BatchSelection;
  readonly readyLabel: string;
  readonly concurrency: number;
  readonly issueSource: IssueSourceKind;
  readonly delivery: DeliveryMode;
}

/** Validates the batch's own flags (usage errors name the flag). */
export function parseBatchFlags(flags: ParsedFlags): BatchFlags {
  const label = optionalString(flags, 'label');
  if (label !== undefined && !LABEL.test(label))
    throw new UsageError(
      `--label must be a label name (letters, digits, . _ : / - and spaces, up to 50), got ${JSON.stringify(label)}`,
      '--label',
    );
  const rawList = optionalString(flags, 'issue-list');
  let issues: number[] | undefined;
  if (rawList !== undefined) {
    const parts = rawList.split(',').map((p) => p.trim());
    const bad = parts.find((p) => !/^[1-9][0-9]*$/.test(p) || !Number.isSafeInteger(Number(p)));
    if (bad !== undefined)
      throw new UsageError(
        `--issue-list must be comma-separated positive integers (e.g. 1,2,3), got "${bad}"`,
        '--issue-list',
      );
    issues = [...new Set(parts.map(Number))];
  }
  const concurrency = optionalNumber(flags, 'concurrency', { integer: true }) ?? 3;
  if (concurrency > MAX_BATCH_CONCURRENCY)
    throw new UsageError(`--concurrency must be at most ${MAX_BATCH_CONCURRENCY}, got ${concurrency}`, '--concurrency');
  const source = optionalString(flags, 'issues') ?? 'local';
  if (source !== 'local' && source !== 'github')
    throw new UsageError(`--issues must be local or github, got "${source}"`, '--issues');
  if (label === undefined && issues === undefined)
    throw new UsageError('choose the issues: --label NAME (e.g. --label ready) or --issue-list 1,2,3', '--label');
  const readyLabel = label ?? 'ready';
  const selection: BatchSelection =
    issues === undefined ? { kind: 'label', label: readyLabel } : { kind: 'issues', issues };
  return { selection, readyLabel, concurrency, issueSource: source, delivery: deliveryOf(flags, source) };
}

/** `<agent>-batch-<label>`, or `<agent>-batch-issues-<hash of the list>`: one live batch per selection. */
export function batchWorkflowId(agentName: string, selection: BatchSelection): string {
  switch (selection.kind) {
    case 'label':
      return `${agentName}-batch-${selection.label.replace(/[^A-Za-z0-9._-]+/g, '_')}`;
    case 'issues': {
      const sorted = [...selection.issues].sort((a, b) => a - b);
      const short =
        sorted.length <= 8
          ? sorted.join('-')
          : createHash('sha256').update(sorted.join(',')).digest('hex').slice(0, 12);
      return `${agentName}-batch-issues-${short}`;
    }
    case 'query':
      return `${agentName}-batch-query-${createHash('sha256').update(JSON.stringify(selection)).digest('hex').slice(0, 12)}`;
  }
}
