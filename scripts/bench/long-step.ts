/**
 * The `tokens` phase's workload: one long scripted step of a work kind, run by the real
 * tool loop (runQueryStep) against the offline model server, so what it bills is what the
 * request builder, the prompt cache and context management make of it. 40 model turns:
 * 39 tool calls of a realistic mix (source files of a few KB, test runs of ~6 KB, greps,
 * edits, one build log cut to the 16 000-character tool limit), then the final answer.
 * The repository is generated, so every run sees the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicLlmClient } from '../../src/activities/model/anthropic-llm-client.js';
import type { LlmClient, LlmUsage } from '../../src/activities/model/llm-client.js';
import { runQueryStep, type QueryStepOutcome } from '../../src/activities/model/query-step.js';
import type { QueryStepRequest } from '../../src/contracts/activities.js';
import type { ContextManagement } from '../../src/contracts/model-options.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionRule, SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

export const LONG_STEP_TURNS = 40;
const MODULES = 12;
const STEP = 'continuation.implement';

/** A TypeScript-looking module of ~3 KB. */
function moduleText(k: number): string {
  const lines = [
    `// module ${k}: order totals, discounts and rounding`,
    `import { round } from './module${(k + 1) % MODULES}';`,
  ];
  for (let f = 0; f < 12; f++) {
    lines.push(
      `export function total${k}_${f}(items: ReadonlyArray<{ price: number; qty: number }>, discount = 0): number {`,
      `  const gross = items.reduce((sum, item) => sum + item.price * item.qty, 0);`,
      `  return round(gross * (1 - discount), ${f % 3});`,
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A test runner printing ~6 KB: passes, one failure with its stack, a summary. */
const RUNNER = `const lines = [];
for (let i = 0; i < 70; i++) lines.push('  ✔ totals ' + i + ': sums the order lines and rounds to cents (' + (i % 7) + '.' + (i % 10) + 'ms)');
lines.push('  ✖ totals 70: applies the discount before rounding', '    AssertionError: expected 10.01 to equal 10', '      at Context.<anonymous> (test/totals.test.ts:70:12)', '      at process.processImmediate (node:internal/timers:476:21)');
lines.push('', '  70 passing (412ms)', '  1 failing');
console.log(lines.join('\\n'));
`;

/** A git repository with the modules, the runner and a ~60 KB build log. */
export function longStepRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'issue-agent-bench-tokens-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'logs'));
  for (let k = 0; k < MODULES; k++) writeFileSync(join(dir, 'src', `module${k}.ts`), moduleText(k));
  writeFileSync(join(dir, 'run-tests.mjs'), RUNNER);
  const log = Array.from(
    { length: 900 },
    (_, i) => `[build] step ${i}: compiled src/module${i % MODULES}.ts in ${i % 90} ms`,
  );
  writeFileSync(join(dir, 'logs', 'build.log'), `${log.join('\n')}\n`);
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'init');
  return dir;
}

/** The tool call of turn `t` (0-based): a repeating mix, the build log once. */
function toolCall(t: number): { name: string; input: Record<string, unknown> } {
  const k = t % MODULES;
  if (t === 20) return { name: 'bash', input: { command: 'cat logs/build.log' } };
  switch (t % 6) {
    case 0:
      return { name: 'bash', input: { command: `cat src/module${k}.ts` } };
    case 1:
      return { name: 'bash', input: { command: 'node run-tests.mjs' } };
    case 2:
      return {
        name: 'str_replace_based_edit_tool',
        input: { command: 'view', path: `src/module${(k + 5) % MODULES}.ts` },
      };
    case 3:
      return {
        name: 'bash',
        input: { command: `grep -n "discount" src/module${k}.ts src/module${(k + 1) % MODULES}.ts` },
      };
    case 4:
      return {
        name: 'str_replace_based_edit_tool',
        input: { command: 'str_replace', path: `src/module${k}.ts`, old_str: `total${k}_0(`, new_str: `total${k}_0 (` },
      };
    default:
      return { name: 'bash', input: { command: 'git diff --stat && git status --short' } };
  }
}

export function longStepSession(): SessionScript {
  const rules: SessionRule[] = [];
  for (let t = 0; t < LONG_STEP_TURNS - 1; t++) {
    rules.push({
      id: `turn-${t}`,
      when: { promptContains: STEP, turn: t },
      respond: {
        text: `Turn ${t}: the discount is applied after rounding in some totals. I will check the next piece of evidence before changing more code, then rerun the tests to see whether the failing case moves.`,
        toolUse: [toolCall(t)],
      },
    });
  }
  rules.push({
    id: 'answer',
    when: { promptContains: STEP },
    respond: { json: { stepId: STEP, summary: 'discount applied before rounding', next_action: { action: 'next' } } },
  });
  return { name: 'bench long step', model: 'claude-sonnet-5-5', rules };
}

/** What one run of the long step billed, turn by turn. */
export interface LongStepRun {
  readonly outcome: QueryStepOutcome;
  readonly turns: readonly LlmUsage[];
}

const SCHEMA = {
  type: 'object',
  required: ['stepId', 'summary', 'next_action'],
  properties: {
    stepId: { type: 'string' },
    summary: { type: 'string' },
    next_action: { type: 'object', required: ['action'], properties: { action: { type: 'string' } } },
  },
} as const;

/** Runs the long step once on a fresh repository and a fresh server (an empty prompt cache). */
export async function runLongStep(model: string, contextManagement: ContextManagement): Promise<LongStepRun> {
  const server = await createModelServer({ session: longStepSession() });
  const turns: LlmUsage[] = [];
  const worktreePath = longStepRepo();
  const artifactsDir = mkdtempSync(join(tmpdir(), 'issue-agent-bench-tokens-artifacts-'));
  try {
    const inner = anthropicLlmClient({ apiKey: 'offline', baseURL: server.url });
    const llm: LlmClient = {
      async createMessage(request, options) {
        const response = await inner.createMessage(request, options);
        turns.push(response.usage);
        return response;
      },
    };
    const read = (p: string): string => readFileSync(join(PROJECT_ROOT, 'prompts', p), 'utf8');
    const input: QueryStepRequest = {
      workflowId: 'bench-tokens',
      issue: 1,
      stepId: STEP,
      stepKind: 'work',
      iteration: 1,
      worktreePath,
      artifactsDir,
      systemPrompt: read('system.md'),
      issueContext: `Issue #1: order totals are off by a cent.\n\n${'When a discount applies, the total is rounded before the discount instead of after it, so some orders are a cent off. '.repeat(12)}`,
      prompt: `# Step ${STEP}\n\n${read('steps/continuation/implement/f_default.md')}`,
      schema: { full: SCHEMA as never, api: SCHEMA as never },
      model: { model, maxTokens: 8192, maxTurnsPerStep: LONG_STEP_TURNS, contextManagement },
      readOnly: false,
      budget: {},
    };
    const ctx = { heartbeat: () => undefined, signal: new AbortController().signal };
    const outcome = await runQueryStep({ llm, log: () => undefined, keepAliveMs: 600_000 }, input, ctx);
    return { outcome, turns };
  } finally {
    await server.close();
    for (const dir of [worktreePath, artifactsDir]) rmSync(dir, { recursive: true, force: true });
  }
}
