/**
 * Custom search attributes of a run. The dev server registers them at start
 * (src/host/temporal/ensure-temporal.ts) and the test environment does too.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const IssueNumberKey = defineSearchAttributeKey('IssueNumber', SearchAttributeType.INT);
export const AgentNameKey = defineSearchAttributeKey('AgentName', SearchAttributeType.KEYWORD);
export const StepIdKey = defineSearchAttributeKey('StepId', SearchAttributeType.KEYWORD);
export const RunPhaseKey = defineSearchAttributeKey('RunPhase', SearchAttributeType.KEYWORD);
export const CostUsdKey = defineSearchAttributeKey('CostUsd', SearchAttributeType.DOUBLE);
export const TokensTotalKey = defineSearchAttributeKey('TokensTotal', SearchAttributeType.INT);
export const DefinitionHashKey = defineSearchAttributeKey('DefinitionHash', SearchAttributeType.KEYWORD);
/** Set by the client at start (src/host/repo-identity.ts), never upserted by the workflow. */
export const RepoIdKey = defineSearchAttributeKey('RepoId', SearchAttributeType.KEYWORD);

export const RUN_SEARCH_ATTRIBUTES = [
  IssueNumberKey,
  AgentNameKey,
  StepIdKey,
  RunPhaseKey,
  CostUsdKey,
  TokensTotalKey,
  DefinitionHashKey,
  RepoIdKey,
] as const;
