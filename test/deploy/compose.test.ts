/**
 * The production deployment, validated without a Docker engine: docker-compose.yml is
 * parsed and its structure checked (services, the depends_on graph, ports, the worker
 * built from ./Dockerfile, configuration referenced from the environment, the search
 * attributes registered, no secrets in the file), and so are the Dockerfile and
 * .dockerignore it relies on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../src/host/temporal/ensure-temporal.js';

type Service = {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: Array<string | { target?: number; published?: number | string }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: Array<string | { source?: string; target?: string }>;
  command?: string | string[];
  entrypoint?: string | string[];
};

const composeText = readFileSync(join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');

const dependsOn = (s: Service): Record<string, string | undefined> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((d) => [d, undefined]))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([k, v]) => [k, v?.condition]));

function environment(s: Service): Record<string, string> {
  if (Array.isArray(s.environment)) {
    return Object.fromEntries(
      s.environment.map((e) => {
        const eq = e.indexOf('=');
        return eq === -1 ? [e, ''] : [e.slice(0, eq), e.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v ?? '')]));
}

const publishes = (s: Service, port: number): boolean =>
  (s.ports ?? []).some((p) =>
    typeof p === 'string'
      ? new RegExp(`(^|:)${port}:${port}(/tcp)?$`).test(p)
      : Number(p.published) === port && p.target === port,
  );

/** The services a service starts after, transitively. */
function upstream(name: string, seen = new Set<string>()): Set<string> {
  for (const dep of Object.keys(dependsOn(services[name]!))) {
    if (!seen.has(dep)) {
      seen.add(dep);
      upstream(dep, seen);
    }
  }
  return seen;
}

function serviceByImage(fragment: string): Array<[string, Service]> {
  return Object.entries(services).filter(([, s]) => (s.image ?? '').includes(fragment));
}

test('the compose file has PostgreSQL, the Temporal server, the Web UI and the worker', () => {
  assert.ok(serviceByImage('postgres:').length === 1, 'one postgres service');
  assert.ok(services['temporal'], 'a temporal service');
  assert.match(services['temporal']!.image ?? '', /^temporalio\/(server|auto-setup):/);
  assert.equal(environment(services['temporal']!)['DB'], 'postgres12', 'Temporal persists in PostgreSQL');
  assert.match(services['temporal-ui']?.image ?? '', /^temporalio\/ui:/);
  assert.ok(services['worker'], 'a worker service');
  for (const [name, s] of Object.entries(services)) {
    if (s.image && !s.build)
      assert.doesNotMatch(s.image, /:latest$|^[^:]+$/, `${name}: images are pinned (a tag, overridable), not latest`);
  }
});

test('depends_on: every dependency exists, the graph has no cycle, and start order is right', () => {
  for (const [name, s] of Object.entries(services)) {
    for (const dep of Object.keys(dependsOn(s))) assert.ok(services[dep], `${name} depends on unknown service ${dep}`);
    assert.ok(!upstream(name).has(name), `${name} depends on itself (cycle)`);
  }
  const [pgName] = serviceByImage('postgres:')[0]!;
  assert.ok(upstream('temporal').has(pgName), 'temporal starts after PostgreSQL');
  assert.ok(upstream('temporal-ui').has('temporal'), 'the UI starts after temporal');
  assert.ok(upstream('worker').has('temporal'), 'the worker starts after temporal');
  const registrar = Object.entries(services).find(([, s]) =>
    JSON.stringify([s.command, s.entrypoint, s.volumes]).includes('register'),
  );
  assert.ok(registrar, 'a one-shot service registers the search attributes');
  assert.equal(
    dependsOn(services['worker']!)[registrar[0]],
    'service_completed_successfully',
    'the worker waits for the search attributes',
  );
  assert.ok(upstream(registrar[0]).has('temporal'), 'registration runs against a started server');
  for (const [name, condition] of Object.entries(dependsOn(services['temporal']!))) {
    if (condition === undefined) continue;
    assert.ok(
      ['service_healthy', 'service_completed_successfully', 'service_started'].includes(condition),
      `temporal → ${name}: ${condition}`,
    );
  }
});

test('ports: the Temporal frontend on 7233 and the Web UI on 8080', () => {
  assert.ok(publishes(services['temporal']!, 7233), 'temporal publishes 7233');
  assert.ok(publishes(services['temporal-ui']!, 8080), 'the UI publishes 8080');
  assert.ok(!publishes(services['worker']!, 7233), 'the worker publishes nothing of Temporal');
});

test('the worker is built from ./Dockerfile, which runs the compiled worker as a non-root user with git', () => {
  const build = services['worker']!.build;
  const context = typeof build === 'string' ? build : build?.context;
  const file = typeof build === 'string' ? 'Dockerfile' : (build?.dockerfile ?? 'Dockerfile');
  assert.equal(context, '.');
  assert.equal(file, 'Dockerfile');
  assert.ok(existsSync(join(PROJECT_ROOT, file)));
  assert.match(dockerfile, /^FROM node:20-slim\b/m);
  assert.match(dockerfile, /^RUN .*npm (ci|install)\b/m);
  assert.match(dockerfile, /^RUN .*npm run build\b/m, 'the image compiles dist/ (no tsx at run time)');
  assert.match(dockerfile, /apt-get install[^\n]*\bgit\b/);
  for (const dir of ['src', 'registry', 'prompts', 'scripts'])
    assert.match(dockerfile, new RegExp(`^COPY ${dir} `, 'm'), `the image contains ${dir}/`);
  assert.match(dockerfile, /^COPY package\.json package-lock\.json /m);
  const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
  assert.ok(users.length > 0 && users.at(-1) !== 'root' && users.at(-1) !== '0', 'the last USER is not root');
  assert.match(dockerfile, /^CMD \["node", "dist\/worker\.js"\]$/m);
  const ignore = readFileSync(join(PROJECT_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  for (const entry of ['node_modules', '.env', '.git', '.artifacts', '.temporal', '.tools'])
    assert.ok(ignore.includes(entry), `.dockerignore lists ${entry}`);
});

test('the worker is configured through the environment of DESIGN §4, referenced, never inlined', () => {
  const env = environment(services['worker']!);
  for (const key of [
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'TEMPORAL_TASK_QUEUE',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'GITHUB_TOKEN',
  ]) {
    assert.ok(key in env, `worker environment has ${key}`);
    assert.match(
      env[key]!,
      new RegExp(`^\\$\\{${key}(:?[-?][^}]*)?\\}$`),
      `${key} is taken from the host environment / .env`,
    );
  }
  for (const key of ['ANTHROPIC_API_KEY', 'GITHUB_TOKEN'])
    assert.match(env[key]!, /^\$\{\w+(:-)?\}$/, `${key} has no default value`);
});

test('the search attributes of a run are registered with their types', () => {
  const scripts = Object.values(services).flatMap((s) =>
    (s.volumes ?? []).flatMap((v) => {
      const source = typeof v === 'string' ? v.split(':')[0]! : (v.source ?? '');
      const path = join(PROJECT_ROOT, source);
      return source.startsWith('./') && source.endsWith('.sh') && existsSync(path) ? [readFileSync(path, 'utf8')] : [];
    }),
  );
  const text = [composeText, ...scripts].join('\n');
  assert.match(text, /temporal operator search-attribute create/);
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) assert.ok(text.includes(flag), `registers ${flag}`);
});

test('no secrets in the compose file', () => {
  assert.doesNotMatch(composeText, /sk-ant-|ghp_|github_pat_|gho_|xox[bp]-|AKIA[0-9A-Z]{16}|-----BEGIN/);
  for (const [name, s] of Object.entries(services)) {
    for (const [key, value] of Object.entries(environment(s))) {
      if (/PASSWORD|PWD|SECRET|TOKEN|API_KEY/.test(key)) {
        assert.match(
          value,
          /^\$\{[A-Z_]+(:?[-?][^}]*)?\}$/,
          `${name}.${key} must be interpolated from the environment, got ${JSON.stringify(value)}`,
        );
        assert.doesNotMatch(value, /:-[^}]+\}$/, `${name}.${key} must not default to a literal`);
      }
    }
  }
});
