/**
 * How a validated run is delivered: the user's choice (`--deliver`), never a surprise.
 * `branch` keeps the issue branch and says how to merge it, `pr` pushes it and opens
 * (or updates) one pull request, `merge` / `squash` put it into the base branch by an
 * atomic ref move. Defaults never touch the base branch unless GitHub reviews it.
 */
import type { BoundaryEffect, IssueSourceKind } from './run.js';

export const DeliveryMode = { Branch: 'branch', PullRequest: 'pr', Merge: 'merge', Squash: 'squash' } as const;
export type DeliveryMode = (typeof DeliveryMode)[keyof typeof DeliveryMode];

export const DELIVERY_MODES: readonly DeliveryMode[] = Object.values(DeliveryMode);

export function isDeliveryMode(value: unknown): value is DeliveryMode {
  return typeof value === 'string' && (DELIVERY_MODES as readonly string[]).includes(value);
}

/** `pr` with GitHub issues, `branch` with local issues. */
export function defaultDeliveryMode(issueSource: IssueSourceKind): DeliveryMode {
  switch (issueSource) {
    case 'github':
      return DeliveryMode.PullRequest;
    case 'local':
      return DeliveryMode.Branch;
  }
}

/** The delivery a run uses: the one it asked for, else the default for its issue source. */
export function deliveryModeOf(input: {
  readonly delivery?: DeliveryMode;
  readonly issueSource: IssueSourceKind;
}): DeliveryMode {
  return input.delivery ?? defaultDeliveryMode(input.issueSource);
}

/**
 * A boundary effect as the user reads it: the delivery's own step by the word they chose it
 * with (`--deliver branch`), not the name results store it under (`keep-branch`, which
 * recorded results and their readers keep).
 */
const EFFECT_LABELS: Readonly<Record<string, string>> = { 'keep-branch': DeliveryMode.Branch };

export function effectLabel(name: string): string {
  return EFFECT_LABELS[name] ?? name;
}

/** Why a delivery is not done, for a failure reason: its first failed or skipped effect. */
export function undeliveredEffect(boundary: { readonly effects: readonly BoundaryEffect[] }): string | undefined {
  const effect = boundary.effects.find((e) => e.status === 'failed' || e.status === 'skipped');
  return effect === undefined ? undefined : `${effectLabel(effect.name)}: ${effect.detail}`;
}
