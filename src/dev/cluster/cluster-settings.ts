/**
 * What a production-shaped local cluster is made of: the pinned versions of the Temporal
 * server and its Web UI server (built from the Go module proxy, cached under .tools/ by
 * version), the ports (all derived from the frontend port, so two clusters never overlap),
 * the PostgreSQL cluster of the distribution that holds persistence and visibility, and
 * the state directory (pid files, logs, the database password). `up` writes these
 * settings to the state directory so `status` and `down` find the same cluster.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../host/project-root.js';
import { devServerStateDir, toolsDir } from '../../host/state-paths.js';

/** The server embedded in our Temporal CLI (1.9.1) is 1.32.0; its go.mod wants go 1.26.8. */
export const TEMPORAL_SERVER_VERSION = 'v1.32.0';
/** The UI embedded in that CLI; its go.mod wants go 1.26.5. */
export const TEMPORAL_UI_VERSION = 'v2.54.1';

/** The configuration templates, shared with docker-compose.yml. */
export const DEPLOY_DIR = join(PROJECT_ROOT, 'deploy');
export const SERVER_CONFIG_TEMPLATE = join(DEPLOY_DIR, 'temporal', 'temporal.yaml');
export const DYNAMIC_CONFIG = join(DEPLOY_DIR, 'temporal', 'dynamicconfig', 'production-sql.yaml');
export const SCHEMA_SCRIPT = join(DEPLOY_DIR, 'temporal', 'setup-schema.sh');
export const REGISTER_SCRIPT = join(DEPLOY_DIR, 'temporal', 'register.sh');
/** `--root deploy --config temporal-ui --env docker` reads deploy/temporal-ui/docker.yaml. */
export const UI_CONFIG_DIR = 'temporal-ui';

export interface ClusterSettings {
  readonly stateDir: string;
  /** The frontend's gRPC port: TEMPORAL_ADDRESS is 127.0.0.1:<port>. */
  readonly port: number;
  /** The Web UI; by default port + 1000, the dev server's convention (host/temporal uiUrlFor). */
  readonly uiPort: number;
  /** The distribution's PostgreSQL cluster (pg_createcluster) and its port. */
  readonly pgCluster: string;
  readonly pgPort: number;
  readonly namespace: string;
}

export const DEFAULT_SETTINGS = {
  port: 7233,
  pgCluster: 'issue-agent',
  pgPort: 5433,
  namespace: 'default',
} as const;

/** `.temporal/cluster` in a clone, `<xdg>/temporal/cluster` in an installed copy. */
export function defaultClusterStateDir(): string {
  return join(devServerStateDir(), 'cluster');
}

export const settingsFile = (stateDir: string): string => join(stateDir, 'cluster.json');

/** The settings a previous `up` wrote there, if any. */
export function readSavedSettings(stateDir: string): ClusterSettings | undefined {
  const file = settingsFile(stateDir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterSettings;
}

export const addressOf = (s: ClusterSettings): string => `127.0.0.1:${s.port}`;
export const uiUrlOf = (s: ClusterSettings): string => `http://127.0.0.1:${s.uiPort}`;

/**
 * The server's environment: deploy/temporal/temporal.yaml reads every port, the database
 * and the dynamic config from it. The other services sit next to the frontend port the way
 * Temporal's defaults do (7233 frontend, 7234 history, 7235 matching, 7239 worker, 7243
 * HTTP; membership 300 below).
 */
export function serverEnvironment(s: ClusterSettings, password: string): Record<string, string> {
  const p = s.port;
  return {
    TEMPORAL_SERVER_CONFIG_FILE_PATH: SERVER_CONFIG_TEMPLATE,
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG,
    DB: 'postgres12',
    POSTGRES_SEEDS: '127.0.0.1',
    DB_PORT: String(s.pgPort),
    POSTGRES_USER: 'temporal',
    POSTGRES_PWD: password,
    BIND_ON_IP: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(p),
    HISTORY_GRPC_PORT: String(p + 1),
    MATCHING_GRPC_PORT: String(p + 2),
    WORKER_GRPC_PORT: String(p + 6),
    FRONTEND_HTTP_PORT: String(p + 10),
    FRONTEND_MEMBERSHIP_PORT: String(p - 300),
    HISTORY_MEMBERSHIP_PORT: String(p - 299),
    MATCHING_MEMBERSHIP_PORT: String(p - 298),
    WORKER_MEMBERSHIP_PORT: String(p - 294),
  };
}

/** The UI server's environment for deploy/temporal-ui/docker.yaml. */
export function uiEnvironment(s: ClusterSettings): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: addressOf(s),
    TEMPORAL_UI_HOST: '127.0.0.1',
    TEMPORAL_UI_PORT: String(s.uiPort),
    TEMPORAL_DEFAULT_NAMESPACE: s.namespace,
    TEMPORAL_CORS_ORIGINS: `${uiUrlOf(s)},http://localhost:${s.uiPort}`,
  };
}

/** Where the built binaries live: `.tools/temporal-server/<version>/` in a clone. */
export function serverToolsDir(): string {
  return join(toolsDir(), 'temporal-server', TEMPORAL_SERVER_VERSION);
}
export function uiToolsDir(): string {
  return join(toolsDir(), 'temporal-ui', TEMPORAL_UI_VERSION);
}
