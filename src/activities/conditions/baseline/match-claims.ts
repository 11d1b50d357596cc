/**
 * Which pre-existing failures the closure classified as unrelated (issue 37). PURE.
 * Only a failure that blocks by no reason of its own needs a claim: one that blocks
 * (the issue names it, the branch changed its file, `require-fixed`) must be fixed, and
 * a claim cannot excuse it. A claim names a test by any of its names (testNames: the
 * full id, `test_b`, a parametrized id's base name, a path's last segment), as the retry
 * prompt or the runner's output showed it; one claim may cover every test answering to
 * that name. A claim without a reason is no claim (preExistingClaimsOf drops it).
 */
import type { PreExistingClaim } from '../../../contracts/pre-existing-claims.js';
import type { PreExistingFailure } from './classify-failures.js';
import { testNames } from './named-by-issue.js';

/** A pre-existing failure, with the closure's reason when it classified it as unrelated. */
export type AccountedFailure = PreExistingFailure & { readonly unrelated?: string };

export interface ClaimCheck {
  /** Every pre-existing failure, the classified ones carrying their reason. */
  readonly preExisting: readonly AccountedFailure[];
  /** Non-blocking pre-existing failures the closure did not classify. */
  readonly unclassified: readonly PreExistingFailure[];
}

export function matchClaims(
  preExisting: readonly PreExistingFailure[],
  claims: readonly PreExistingClaim[],
): ClaimCheck {
  const unclassified: PreExistingFailure[] = [];
  const accounted = preExisting.map((failure): AccountedFailure => {
    if (failure.blocks !== undefined) return failure;
    const claim = claimFor(failure, claims);
    if (claim === undefined) {
      unclassified.push(failure);
      return failure;
    }
    return { ...failure, unrelated: claim.reason };
  });
  return { preExisting: accounted, unclassified };
}

function claimFor(failure: PreExistingFailure, claims: readonly PreExistingClaim[]): PreExistingClaim | undefined {
  const names = testNames(failure.name);
  return claims.find((c) => c.test === failure.name || names.includes(c.test));
}
