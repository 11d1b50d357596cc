/**
 * docker-compose.yml and `npm run cluster` cannot drift: the compose services mount the
 * very files the cluster command starts the server, the schema setup, the registration and
 * the UI with, at the paths their environment names, and both pin the same versions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import {
  DYNAMIC_CONFIG,
  REGISTER_SCRIPT,
  SCHEMA_SCRIPT,
  SERVER_CONFIG_TEMPLATE,
  TEMPORAL_SERVER_VERSION,
  TEMPORAL_UI_VERSION,
  UI_CONFIG_DIR,
  DEPLOY_DIR,
} from '../../src/dev/cluster/cluster-settings.js';

type Service = { image?: string; environment?: Record<string, string>; volumes?: string[] };
const compose = parse(readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};

/** host path (relative, as compose writes it) → container path. */
function mounts(service: string): Map<string, string> {
  return new Map(
    (compose.services[service]?.volumes ?? []).map((v) => {
      const [host, container] = v.split(':');
      return [host!.replace(/^\.\//, ''), container!];
    }),
  );
}

const rel = (path: string): string => relative(PROJECT_ROOT, path);

test('the Temporal server in compose reads the cluster command’s config template and dynamic config', () => {
  const m = mounts('temporal');
  const env = compose.services['temporal']!.environment!;
  assert.equal(env['TEMPORAL_SERVER_CONFIG_FILE_PATH'], m.get(rel(SERVER_CONFIG_TEMPLATE)));
  const dynamicDir = m.get(rel(join(DYNAMIC_CONFIG, '..')));
  assert.ok(dynamicDir, 'the dynamic config directory is mounted');
  assert.equal(env['DYNAMIC_CONFIG_FILE_PATH'], `${dynamicDir}/${DYNAMIC_CONFIG.split('/').at(-1)}`);
  assert.match(readFileSync(SERVER_CONFIG_TEMPLATE, 'utf8').slice(0, 1024), /^# enable-template$/m);
});

test('schema setup, registration and the UI use the same files in compose and in the cluster command', () => {
  assert.ok(mounts('temporal-schema').has(rel(SCHEMA_SCRIPT)));
  assert.ok(mounts('temporal-register').has(rel(REGISTER_SCRIPT)));
  const uiConfig = join(DEPLOY_DIR, UI_CONFIG_DIR, 'docker.yaml');
  assert.ok(existsSync(uiConfig));
  assert.equal(mounts('temporal-ui').get(rel(uiConfig)), '/home/ui-server/config/docker.yaml');
});

test('compose pins the versions the cluster command builds', () => {
  const tag = (service: string): string => /:\$\{\w+:-([^}]+)\}$/.exec(compose.services[service]!.image!)?.[1] ?? '';
  for (const service of ['temporal', 'temporal-schema', 'temporal-register'])
    assert.equal(`v${tag(service)}`, TEMPORAL_SERVER_VERSION, service);
  assert.equal(`v${tag('temporal-ui')}`, TEMPORAL_UI_VERSION);
});
