/**
 * What an e2e run's failure message says: the run's reason, the CLI's stderr, and every
 * tool call the scripted model made with the output it got back, read from the steps'
 * transcripts while they still exist (they are removed with the temp dirs after the
 * file). A run that fails now and then under load (a scripted `git commit` that did not
 * land) then names git's own error in the CI log instead of only the validator's verdict.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { RunResult } from '../../src/contracts/run.js';
import type { LlmContentBlock, LlmMessage } from '../../src/activities/model/llm-client.js';

interface Diagnosable {
  readonly result?: RunResult;
  readonly cli: { readonly code: number | null; readonly stderr: string };
}

const MAX_OUTPUT = 2_000;

const clip = (text: string): string =>
  text.length <= MAX_OUTPUT ? text : `${text.slice(0, MAX_OUTPUT)}… (${text.length} chars)`;

/** One line per tool call and its result, in the order the step made them. */
function toolLines(messages: readonly LlmMessage[]): string[] {
  const lines: string[] = [];
  const blocks: LlmContentBlock[] = messages.flatMap((m) => [...m.content]);
  for (const block of blocks) {
    if (block.type === 'tool_use') lines.push(`  tool ${String(block['name'])}: ${JSON.stringify(block['input'])}`);
    if (block.type === 'tool_result') {
      const error = block['is_error'] === true ? ' (error)' : '';
      lines.push(`  result${error}: ${clip(String(block['content']))}`);
    }
  }
  return lines;
}

async function stepLines(step: { readonly stepId: string; readonly transcript?: string }): Promise<string[]> {
  if (step.transcript === undefined) return [`${step.stepId}: no transcript`];
  const transcript = await readFile(step.transcript, 'utf8').then(
    (text) => JSON.parse(text) as { readonly messages?: readonly LlmMessage[] },
    (error: unknown) => ({ unreadable: String(error) }),
  );
  if ('unreadable' in transcript) return [`${step.stepId}: transcript unreadable: ${transcript.unreadable}`];
  const tools = toolLines(transcript.messages ?? []);
  return tools.length === 0 ? [] : [`${step.stepId}:`, ...tools];
}

/** The reason, stderr and every step's tool calls with their outputs. */
export async function diagnoseRun(run: Diagnosable): Promise<string> {
  const steps = run.result?.steps ?? [];
  const perStep = await Promise.all(steps.map(stepLines));
  return [
    `outcome: ${run.result?.outcome ?? '(no result)'} (exit ${String(run.cli.code)})`,
    `reason: ${run.result?.reason ?? '(none)'}`,
    `stderr: ${clip(run.cli.stderr.trim()) || '(empty)'}`,
    'tool calls:',
    ...perStep.flat(),
  ].join('\n');
}

/** Asserts the run succeeded; when it did not, the message is the whole diagnosis. */
export async function assertSucceeded(run: Diagnosable, context = ''): Promise<void> {
  if (run.result?.outcome === 'success') return;
  assert.fail(`${context === '' ? '' : `${context}\n`}${await diagnoseRun(run)}`);
}
