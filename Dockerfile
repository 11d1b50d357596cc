# The worker image: `npm run worker` against the Temporal cluster named by TEMPORAL_ADDRESS.
# Build: docker build -t durable-issue-agent .   (docker-compose.yml builds it as the `worker` service)
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

# Dependencies first (cached layer). tsx is a runtime dependency; dev dependencies
# (typescript, @types/node) are only for type checking and are left out.
COPY package.json package-lock.json ./
# npm install honours the committed lockfile; npm ci rejects lockfiles written where optional
# platform packages are omitted (see .ci/run).
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src
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
CMD ["npm", "run", "worker"]
