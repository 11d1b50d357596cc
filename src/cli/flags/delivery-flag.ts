/**
 * `--deliver branch|pr|merge|squash`: read and checked against the issue source before
 * anything starts. `pr` needs GitHub issues (the pull request closes a GitHub issue).
 */
import { DELIVERY_MODES, defaultDeliveryMode, isDeliveryMode, type DeliveryMode } from '../../contracts/delivery.js';
import { UsageError } from '../../contracts/errors.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import { optionalString, type ParsedFlags } from './parse-flags.js';

export const DELIVER_FLAG = {
  type: 'string',
  value: DELIVERY_MODES.join('|'),
  help: 'how a validated run is delivered: keep the branch, open a pull request, or merge / squash into the base branch (default: pr with --issues github, branch with local issues)',
} as const;

/** The flag wins; else the repository's `.agent/config.json` `deliver`; else the source's default. */
export function deliveryOf(flags: ParsedFlags, issueSource: IssueSourceKind, configured?: DeliveryMode): DeliveryMode {
  const flag = optionalString(flags, 'deliver');
  const raw = flag ?? configured;
  const where = flag === undefined ? '.agent/config.json#/deliver' : '--deliver';
  if (raw === undefined) return defaultDeliveryMode(issueSource);
  if (!isDeliveryMode(raw))
    throw new UsageError(`${where} must be one of ${DELIVERY_MODES.join(', ')}, got "${raw}"`, where);
  if (raw === 'pr' && issueSource !== 'github')
    throw new UsageError(
      `${where} pr opens a pull request for a GitHub issue: use it with --issues github (local issues: branch, merge or squash)`,
      where,
    );
  return raw;
}
