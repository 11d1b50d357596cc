/**
 * The ports a networked setup may connect to: the web's, git's and DNS's by default, the
 * ports of the proxies and registries the worker names, and the operator's additions; a bad
 * addition is CONFIG_INVALID naming the variable. The Temporal frontend's port is none of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentError } from '../../../src/contracts/errors.js';
import {
  DEFAULT_SETUP_PORTS,
  SETUP_PORTS_ENV,
  setupConnectPorts,
} from '../../../src/activities/tools/setup-connect-ports.js';
import { landlockNetArgv } from '../../../src/activities/tools/landlock-net.js';

test('defaults, proxies, registries and the operator list; never Temporal by default', () => {
  assert.deepEqual(setupConnectPorts({}), [...DEFAULT_SETUP_PORTS]);
  assert.ok(!setupConnectPorts({ TEMPORAL_ADDRESS: '127.0.0.1:7233' })?.includes(7233));
  const ports = setupConnectPorts({
    HTTPS_PROXY: 'http://proxy.internal:3128',
    NPM_CONFIG_REGISTRY: 'https://npm.internal:8443/',
    PIP_INDEX_URL: 'https://pypi.org/simple',
    [SETUP_PORTS_ENV]: '4873, 8081',
  });
  for (const port of [443, 3128, 8443, 4873, 8081]) assert.ok(ports?.includes(port), `${port} in ${ports?.join(',')}`);
  assert.deepEqual(
    ports,
    [...(ports ?? [])].sort((a, b) => a - b),
  );
});

test('"any" lifts the rule (a build tool with a daemon on loopback)', () => {
  assert.equal(setupConnectPorts({ [SETUP_PORTS_ENV]: 'any' }), undefined);
  assert.equal(setupConnectPorts({ [SETUP_PORTS_ENV]: ' ANY ' }), undefined);
});

test('a bad port list names the variable and what it takes', () => {
  for (const bad of ['80,http', '0', '70000', '1e3']) {
    assert.throws(
      () => setupConnectPorts({ [SETUP_PORTS_ENV]: bad }),
      (err: unknown) =>
        err instanceof AgentError && err.code === 'CONFIG_INVALID' && err.message.includes(SETUP_PORTS_ENV),
    );
  }
});

test('the installer words: system perl by absolute path, the prctl number, the ports; none without perl', () => {
  const argv = landlockNetArgv('x64', [80, 443], (p) => p === '/usr/bin/perl' || p === '/usr/bin/env');
  assert.deepEqual([argv?.[0], argv?.[2], argv?.[5], argv?.[6]], ['/usr/bin/env', '/usr/bin/perl', '157', '80,443']);
  assert.equal(
    landlockNetArgv('x64', [80], () => false),
    undefined,
  );
});
