import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AgentError } from '../../../src/contracts/errors.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { readRepoConfig } from '../../../src/definition/repo-config/read-repo-config.js';
import { readRepoInstructions } from '../../../src/definition/repo-config/repo-instructions.js';
import { repoSettings } from '../../../src/definition/repo-config/repo-settings.js';
import { setupCommandsOf } from '../../../src/contracts/repo-config.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { resolveC3lPrompt } from '../../../src/definition/c3l/resolve-c3l-prompt.js';
import { systemPromptInput } from '../../../src/contracts/step-inputs.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

async function withRepo(files: Record<string, string>, fn: (dir: string) => Promise<void>): Promise<void> {
  const repo = await makeTempGitRepo({ files });
  try {
    await fn(repo.dir);
  } finally {
    await repo.cleanup();
  }
}

const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: 'x', scripts });

const CTEST =
  'cmake -S . -B build && cmake --build build && cd build && ctest --output-on-failure --no-tests=error --output-junit ctest-junit.xml';

test('test command detected from the lockfile, CMake, Makefile, Python, Go and Rust files', async () => {
  const cases: Array<[Record<string, string>, string | undefined]> = [
    [{ 'package.json': pkg({ test: 'vitest' }), 'pnpm-lock.yaml': '' }, 'pnpm test'],
    [{ 'package.json': pkg({ test: 'jest' }), 'yarn.lock': '' }, 'yarn test'],
    [
      { 'package.json': pkg({ test: 'pnpm -r test' }), 'pnpm-lock.yaml': '', 'pnpm-workspace.yaml': 'packages: [a]\n' },
      'pnpm --no-bail -r test',
    ],
    [
      {
        'package.json': pkg({ test: "pnpm --filter './packages/**' run test" }),
        'pnpm-lock.yaml': '',
        'pnpm-workspace.yaml': '',
      },
      "pnpm --no-bail --filter './packages/**' run test",
    ],
    [
      {
        'package.json': pkg({ test: 'pnpm -r build && pnpm -r test' }),
        'pnpm-lock.yaml': '',
        'pnpm-workspace.yaml': '',
      },
      'pnpm test',
    ],
    [{ 'package.json': pkg({ test: 'pnpm -r test' }), 'pnpm-lock.yaml': '' }, 'pnpm test'],
    [{ 'package.json': pkg({ test: 'bun test' }), 'bun.lockb': '' }, 'bun run test'],
    [{ 'package.json': pkg({ test: 'node --test' }), 'package-lock.json': '{}' }, 'npm test'],
    [
      { 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }), 'go.mod': 'module x' },
      'go test ./...',
    ],
    [{ Makefile: 'build:\n\tcc x.c\ntest: build\n\t./run\n' }, 'make -k test'],
    [
      {
        'CMakeLists.txt':
          'cmake_minimum_required(VERSION 3.14)\nproject(x C)\nENABLE_TESTING()\nadd_test(NAME t COMMAND t)\n',
        Makefile: 'test:\n\tcc -o t t.c && ./t\n',
      },
      CTEST,
    ],
    [{ 'CMakeLists.txt': 'project(x C)\ninclude(CTest)\n' }, CTEST],
    [{ 'CMakeLists.txt': 'project(x C)\nadd_executable(x x.c)\n', Makefile: 'test:\n\t./x\n' }, 'make -k test'],
    [{ Makefile: 'build:\n\tcc x.c\n', 'pyproject.toml': '[project]\n' }, 'pytest'],
    [{ 'setup.cfg': '[tool:pytest]\n' }, 'pytest'],
    [{ 'go.mod': 'module example.com/x\n' }, 'go test ./...'],
    [{ 'Cargo.toml': '[package]\nname = "x"\n' }, 'cargo test --no-fail-fast'],
    [{ 'README.md': 'hi\n' }, undefined],
  ];
  for (const [files, expected] of cases) {
    await withRepo(files, async (dir) => {
      const detected = await detectCommands(dir);
      assert.equal(detected.commands.test, expected, `files ${Object.keys(files).join(', ')}`);
      if (expected !== undefined)
        assert.match(detected.reasons[0] ?? '', new RegExp(expected.replace(/[.*]/g, '\\$&')));
    });
  }
});

test('typecheck and lint scripts of package.json are picked up with the package manager', async () => {
  await withRepo(
    { 'package.json': pkg({ test: 'vitest', typecheck: 'tsc', lint: 'eslint .' }), 'pnpm-lock.yaml': '' },
    async (dir) => {
      assert.deepEqual((await detectCommands(dir)).commands, {
        test: 'pnpm test',
        typeCheck: 'pnpm run typecheck',
        lint: 'pnpm run lint',
      });
    },
  );
});

test('an invalid .agent/config.json names the file and the JSON pointer of every problem', async () => {
  await withRepo(
    {
      '.agent/config.json': JSON.stringify({
        commands: { test: '', tset: 'x' },
        deliver: 'yolo',
        budget: { maxUsd: -1 },
      }),
    },
    async (dir) => {
      await assert.rejects(readRepoConfig(dir), (error: unknown) => {
        assert.ok(error instanceof AgentError);
        assert.equal(error.code, 'CONFIG_INVALID');
        assert.ok(error.message.includes(join(dir, '.agent', 'config.json')), error.message);
        assert.match(error.message, /\/commands: unknown key "tset"/);
        assert.match(error.message, /\/commands\/test: /);
        assert.match(error.message, /\/deliver: must be one of "branch", "pr", "merge", "squash"/);
        assert.match(error.message, /\/budget\/maxUsd: /);
        assert.match(error.where ?? '', /config\.json#\//);
        return true;
      });
    },
  );
  await withRepo({ '.agent/config.json': '{ "commands": ' }, async (dir) => {
    await assert.rejects(readRepoConfig(dir), /config\.json is not valid JSON/);
  });
  await withRepo({}, async (dir) => assert.equal(await readRepoConfig(dir), undefined));
});

test('config commands win; detection fills only when the test command is missing; notes say what was chosen', async () => {
  await withRepo(
    {
      '.agent/config.json': JSON.stringify({
        commands: { test: 'make check' },
        model: 'claude-x',
        agent: 'agents/mine',
      }),
      'package.json': pkg({ test: 'vitest' }),
      'AGENTS.md': 'Use tabs.\n',
      'CLAUDE.md': 'Run make check.\n',
    },
    async (dir) => {
      const s = await repoSettings(dir);
      assert.deepEqual(s.overrides, { validationCommands: { test: 'make check' }, model: 'claude-x' });
      assert.equal(s.agentDir, join(dir, '.agent', 'agents', 'mine'));
      assert.match(s.instructions, /<AGENTS\.md>\nUse tabs\.\n<\/AGENTS\.md>/);
      assert.match(s.instructions, /Run make check\./);
      assert.ok(s.notes.some((n) => n.includes('AGENTS.md, CLAUDE.md')));
      assert.ok(!s.notes.some((n) => n.startsWith('detected')), 'nothing detected when config sets test');
    },
  );
  await withRepo({ 'Cargo.toml': '[package]\n' }, async (dir) => {
    const s = await repoSettings(dir);
    assert.deepEqual(s.overrides, { validationCommands: { test: 'cargo test --no-fail-fast' } });
    assert.ok(
      s.notes.some((n) => n.includes('cargo test --no-fail-fast (Cargo.toml')),
      s.notes.join('\n'),
    );
    assert.equal(s.instructions, '');
  });
  await withRepo({}, async (dir) => {
    const s = await repoSettings(dir);
    assert.deepEqual(s.overrides, {});
    assert.ok(s.notes.some((n) => n.startsWith('no test command detected')));
  });
});

test('instructions are capped', async () => {
  await withRepo({ 'AGENTS.md': 'x'.repeat(50_000) }, async (dir) => {
    const { text } = await readRepoInstructions(dir);
    assert.ok(text.length < 21_000);
    assert.match(text, /\[truncated\]$/);
  });
});

test('overrides reach the built-in validators and change the definition hash', async () => {
  const plain = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const over = await loadAgentDefinitionOrThrow(PROJECT_ROOT, {
    validationCommands: { test: 'pnpm test', lint: 'pnpm run lint' },
    model: 'claude-other',
  });
  assert.equal((plain.validators['tests'] as { command: string }).command, 'npm test --silent');
  assert.equal((over.validators['tests'] as { command: string }).command, 'pnpm test');
  assert.equal((over.validators['lint'] as { command: string }).command, 'pnpm run lint');
  assert.equal(over.model.model, 'claude-other');
  assert.notEqual(over.hash, plain.hash);
  assert.equal((await loadAgentDefinitionOrThrow(PROJECT_ROOT, {})).hash, plain.hash, 'empty overrides: same hash');
});

test('the default system prompt carries the repository instructions, and works without them', async () => {
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const withText = await resolveC3lPrompt(
    systemPromptInput(definition, 3, 'agent/issue-3', '<AGENTS.md>\nAlways run make fmt.\n</AGENTS.md>'),
  );
  assert.match(withText.text, /<AGENTS\.md>\nAlways run make fmt\.\n<\/AGENTS\.md>/);
  const without = await resolveC3lPrompt(systemPromptInput(definition, 3, 'agent/issue-3'));
  assert.doesNotMatch(without.text, /\{uv-/, 'no placeholder is left');
});

test('commands.setup: a string or a list of strings; never a validator command; bad input names the pointer', async () => {
  for (const setup of ['make deps', ['npm ci', 'npm run build']]) {
    await withRepo({ '.agent/config.json': JSON.stringify({ commands: { test: 'npm test', setup } }) }, async (dir) => {
      const config = await readRepoConfig(dir);
      assert.deepEqual(setupCommandsOf(config?.commands), typeof setup === 'string' ? [setup] : setup);
      const settings = await repoSettings(dir);
      assert.deepEqual(settings.overrides.validationCommands, { test: 'npm test' });
    });
  }
  // A value of the wrong kind says what setup must be; a bad item is named by its own pointer.
  const refused: Array<[unknown, RegExp, RegExp]> = [
    [5, /\/commands\/setup: must be a command line \(a non-empty string\) or a non-empty list/, /#\/commands\/setup$/],
    [[], /\/commands\/setup: must be a command line \(a non-empty string\) or a non-empty list/, /#\/commands\/setup$/],
    [[''], /\/commands\/setup\/0: must not be empty/, /#\/commands\/setup\/0$/],
    [['ok', 3], /\/commands\/setup\/1: must be string/, /#\/commands\/setup\/1$/],
  ];
  for (const [setup, says, where] of refused) {
    await withRepo({ '.agent/config.json': JSON.stringify({ commands: { setup } }) }, async (dir) => {
      await assert.rejects(readRepoConfig(dir), (error: unknown) => {
        assert.ok(error instanceof AgentError);
        assert.equal(error.code, 'CONFIG_INVALID');
        assert.ok(error.message.includes(join(dir, '.agent', 'config.json')), error.message);
        assert.match(error.message, says);
        assert.equal(error.message.split('\n').length, 2, `one line per problem: ${error.message}`);
        assert.match(error.where ?? '', where);
        return true;
      });
    });
  }
});
