#!/bin/sh
# One-shot: waits for the frontend, creates the namespace and registers the run's custom
# search attributes (the same as src/host/temporal/ensure-temporal.ts SEARCH_ATTRIBUTE_FLAGS;
# test/deploy/compose.test.ts checks it). Run by docker-compose.yml (admin-tools image) and
# by `npm run cluster -- up` (the project's Temporal CLI put on PATH).
# Idempotent: an attribute that already exists with the same type is fine.
set -eu
: "${TEMPORAL_ADDRESS:?}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
echo "waiting for Temporal at ${TEMPORAL_ADDRESS}"
attempt=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  [ "$attempt" -ge 60 ] && { echo "Temporal did not become healthy"; exit 1; }
  sleep 3
done
temporal operator namespace describe --address "$TEMPORAL_ADDRESS" -n "$NAMESPACE" >/dev/null 2>&1 \
  || temporal operator namespace create --address "$TEMPORAL_ADDRESS" -n "$NAMESPACE" --retention 30d
# A new namespace reaches the server's namespace cache within seconds: wait until it serves.
attempt=0
until temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" -n "$NAMESPACE" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  [ "$attempt" -ge 30 ] && { echo "namespace ${NAMESPACE} did not become usable"; exit 1; }
  sleep 2
done
for attr in IssueNumber=Int AgentName=Keyword StepId=Keyword RunPhase=Keyword CostUsd=Double TokensTotal=Int DefinitionHash=Keyword RepoId=Keyword \
  PipelinePhase=Keyword PipelineCycle=Int PipelineAgent=Keyword PipelineOutcome=Keyword; do
  name="${attr%%=*}"
  type="${attr#*=}"
  if temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" -n "$NAMESPACE" | grep -qw "$name"; then
    echo "search attribute $name already registered"
  else
    temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" -n "$NAMESPACE" --name "$name" --type "$type"
  fi
done
echo "namespace ${NAMESPACE} ready with the run's search attributes"
