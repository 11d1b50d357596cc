/**
 * Turn collapsing, pure: old plain tool turns leave the conversation as digest lines in the
 * first user message, a chunk at a time; the newest turns stay whole; what was sent repeats
 * byte for byte from one request to the next up to the last chunk (the prompt cache's
 * condition); a turn of another shape stops collapsing; and the offline model server still
 * counts the collapsed turns (through the real templates), so scripted sessions keep their turns.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';
import {
  collapseTurns,
  createCollapsedDigest,
  type DigestWriter,
} from '../../../src/activities/model/turn-collapse.js';
import { viewRequest } from '../../../src/dev/model-server/request-view.js';
import { tempDir } from './step-fixtures.js';

const policy = { keepToolResults: 2, maskChunk: 4, minMaskChars: 600 };

function conversation(turns: number, other?: number): LlmMessage[] {
  const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'the step prompt' }] }];
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `reading part ${i}` },
        { type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: `cat part${i}.txt` } },
      ],
    });
    const content = [{ type: 'tool_result' as const, tool_use_id: `t${i}`, content: `${i}:`.padEnd(900, 'y') }];
    messages.push({
      role: 'user',
      content: i === other ? [...content, { type: 'text' as const, text: 'a note from the harness' }] : content,
    });
  }
  return messages;
}

const lines: DigestWriter = (calls, first) =>
  Promise.resolve(`${first ? 'HEAD\n' : ''}${calls.map((c) => `- turn ${c.turn}.${c.call}: ${c.said}`).join('\n')}`);

test('the oldest turns become digest lines, a chunk at a time; the newest stay whole', async () => {
  const view = await collapseTurns(conversation(11), policy, lines);
  // 11 results, keep 2, chunks of 4: 8 collapse in two chunks; turns 9–11 are sent whole.
  assert.equal(view.messages.length, 1 + 2 * 3);
  const head = view.messages[0]!.content.map((b) => (b as { text: string }).text);
  assert.deepEqual(head, [
    'the step prompt',
    'HEAD\n- turn 1.0: reading part 0\n- turn 2.0: reading part 1\n- turn 3.0: reading part 2\n- turn 4.0: reading part 3',
    '- turn 5.0: reading part 4\n- turn 6.0: reading part 5\n- turn 7.0: reading part 6\n- turn 8.0: reading part 7',
  ]);
  assert.equal(view.messages[1]!.role, 'assistant');
  assert.deepEqual(view.frontier, { message: 0, block: 2 });
  assert.equal(view.previousFrontier, undefined, 'this request collapsed no new chunk');
});

test('from one request to the next, what was sent repeats up to the last chunk', async () => {
  let previous: LlmMessage[] | undefined;
  for (let n = 1; n <= 30; n++) {
    const view = await collapseTurns(conversation(n), policy, lines);
    const sent = view.messages;
    if (previous !== undefined) {
      const head = JSON.stringify(previous[0]!.content);
      assert.equal(
        JSON.stringify(sent[0]!.content.slice(0, previous[0]!.content.length)),
        head,
        `n=${n}: first message`,
      );
      if (sent[0]!.content.length === previous[0]!.content.length)
        assert.equal(JSON.stringify(sent.slice(0, previous.length)), JSON.stringify(previous), `n=${n}: whole prefix`);
      else
        assert.ok(view.previousFrontier !== undefined || previous[0]!.content.length === 1, `n=${n}: previous chunk`);
    }
    // The conversation sent never grows past the step prompt, the digest and keep + chunk turns.
    assert.ok(sent.length <= 1 + 2 * (policy.keepToolResults + policy.maskChunk), `n=${n}: ${sent.length} messages`);
    previous = [...sent];
  }
});

test('a turn that is not a plain tool turn stops collapsing there; nothing the harness said is lost', async () => {
  const view = await collapseTurns(conversation(11, 2), policy, lines);
  const head = view.messages[0]!.content.map((b) => (b as { text: string }).text);
  assert.deepEqual(head.slice(1), ['HEAD\n- turn 1.0: reading part 0\n- turn 2.0: reading part 1'], 'turns 1–2 only');
  assert.equal(view.messages.length, 1 + 2 * 9, 'turn 3 (with the note) and every later turn are sent whole');
  assert.ok(JSON.stringify(view.messages[2]).includes('a note from the harness'));
});

test('the offline model server counts collapsed turns, through the real digest templates', async () => {
  const store = createArtifactStore(tempDir('turn-collapse-'));
  const view = await collapseTurns(conversation(11), policy, createCollapsedDigest(store));
  const seen = viewRequest({ model: 'm', messages: view.messages });
  assert.equal(seen.turn, 8 + 3, 'eight collapsed turns and three assistant messages');
  assert.equal(seen.promptTail, 'the step prompt', 'the digest is not the step prompt');
  const digest = (view.messages[0]!.content[1] as { text: string }).text;
  assert.match(digest, /- turn 1\.0: reading part 0 → bash `cat part0\.txt` \(900 characters\)/);
  assert.match(digest, /turn-T-C\.\*\.txt/, 'says where the full outputs are');
});
