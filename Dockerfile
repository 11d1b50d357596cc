# The worker image: `issue-agent worker` (compiled, dist/worker.js) against the Temporal
# cluster named by TEMPORAL_ADDRESS.
# Build: docker build -t durable-issue-agent .   (docker-compose.yml builds it as the `worker` service)

# Stage 1: compile TypeScript to dist/ and prebuild the workflow bundle, then drop dev dependencies.
FROM node:20-slim AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# The lockfile lists every platform's optional packages, so `npm ci` works here and on any
# machine. Scripts are skipped until the sources are in (prepare would build too early).
RUN npm ci --ignore-scripts && npm rebuild
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

# Stage 2: the runtime, no TypeScript tooling.
FROM node:20-slim

# git: the worker creates worktrees, commits, merges and validates in target repositories.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 # Repositories are bind-mounted from the host and owned by another uid.
 && git config --system --add safe.directory '*'

ENV NODE_ENV=production \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY registry ./registry
COPY prompts ./prompts
COPY scripts ./scripts

# Run artifacts (transcripts, large tool outputs) and mounted repositories are written
# by the unprivileged `node` user (uid 1000) of the base image.
RUN mkdir -p /app/.artifacts /repos && chown -R node:node /app/.artifacts /repos
USER node
VOLUME ["/app/.artifacts"]

# Configuration comes from the environment (DESIGN §4): TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
# TEMPORAL_TASK_QUEUE, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, GITHUB_TOKEN; optionally
# LOG_LEVEL and TEMPORAL_METRICS_PROMETHEUS. Nothing secret is baked into the image.
CMD ["node", "dist/worker.js"]
