/**
 * Custom search attributes of a pipeline (besides RepoId and IssueNumber, set by the
 * client at start): the phase, the cycle, the agent dispatched and its last outcome,
 * so the Web UI lists pipelines by where they are (`PipelinePhase = "review"`).
 * Registered with the run's (src/workflows/run/search-attributes.ts).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const PipelinePhaseKey = defineSearchAttributeKey('PipelinePhase', SearchAttributeType.KEYWORD);
export const PipelineCycleKey = defineSearchAttributeKey('PipelineCycle', SearchAttributeType.INT);
export const PipelineAgentKey = defineSearchAttributeKey('PipelineAgent', SearchAttributeType.KEYWORD);
export const PipelineOutcomeKey = defineSearchAttributeKey('PipelineOutcome', SearchAttributeType.KEYWORD);

export const PIPELINE_SEARCH_ATTRIBUTES = [
  PipelinePhaseKey,
  PipelineCycleKey,
  PipelineAgentKey,
  PipelineOutcomeKey,
] as const;
