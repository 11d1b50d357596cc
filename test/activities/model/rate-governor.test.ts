/**
 * The model-rate governor: token-bucket math on an injected clock, the provider's
 * rate-limit headers tightening (and holding) it, FIFO order, abort while waiting,
 * env parsing, and the LlmClient decorator feeding it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../../src/contracts/errors.js';
import { FailureType } from '../../../src/contracts/failures.js';
import {
  createGovernedLlmClient,
  createRateGovernor,
  estimateRequestTokens,
  rateLimitsFromEnv,
  sharedRateGovernor,
  type RateGovernorOptions,
} from '../../../src/activities/model/rate-governor.js';
import type { LlmClient, LlmRequest } from '../../../src/activities/model/llm-client.js';

/** A clock that only moves when the governor sleeps. */
function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  const clock = {
    t: start,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

function governor(limits: Pick<RateGovernorOptions, 'rpm' | 'tpm'>, clock = fakeClock()) {
  return { clock, gov: createRateGovernor({ ...limits, now: clock.now, sleep: clock.sleep, maxWaitSliceMs: 60_000 }) };
}

describe('token buckets', () => {
  it('unlimited when no limit is configured and no header was seen', async () => {
    const { clock, gov } = governor({});
    for (let i = 0; i < 1000; i++) await gov.acquire({ estimatedTokens: 1_000_000 });
    assert.equal(clock.t - Date.parse('2026-01-01T00:00:00Z'), 0);
    assert.equal(gov.snapshot().granted, 1000);
  });

  it('requests/minute: a burst of the capacity, then one request every 60/rpm seconds', async () => {
    const { clock, gov } = governor({ rpm: 60 });
    const t0 = clock.t;
    for (let i = 0; i < 60; i++) await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t, t0, 'the first 60 pass at once');
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t - t0, 1000, 'the 61st waits one refill (1 s at 60 rpm)');
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t - t0, 2000);
  });

  it('tokens/minute: waits until the estimate fits, refilling continuously', async () => {
    const { clock, gov } = governor({ tpm: 6000 });
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 5000 });
    assert.equal(clock.t, t0);
    await gov.acquire({ estimatedTokens: 3000 }); // 1000 left: 2000 more at 100/s = 20 s
    assert.equal(clock.t - t0, 20_000);
  });

  it('a request larger than the bucket waits for a full bucket, then leaves a debt', async () => {
    const { clock, gov } = governor({ tpm: 1000 });
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 500 });
    await gov.acquire({ estimatedTokens: 3000 }); // needs the full 1000: 500 more = 30 s
    assert.equal(clock.t - t0, 30_000);
    assert.equal(Math.round(gov.snapshot().tokens!.level), -2000);
    await gov.acquire({ estimatedTokens: 100 }); // repay 2000 + 100 = 2100 tokens = 126 s
    assert.equal(clock.t - t0, 30_000 + 126_000);
  });

  it('settle corrects the estimate by the real usage', async () => {
    const { gov } = governor({ tpm: 10_000 });
    await gov.acquire({ estimatedTokens: 1000 });
    gov.settle(1000, 4000);
    assert.equal(Math.round(gov.snapshot().tokens!.level), 6000);
  });

  it('serves waiters in arrival order', async () => {
    const { gov } = governor({ rpm: 1 });
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((i) => gov.acquire({ estimatedTokens: 0 }).then(() => order.push(i))));
    assert.deepEqual(order, [1, 2, 3, 4]);
  });
});

describe('provider headers', () => {
  const H = (o: Record<string, string | number>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

  it('requests-remaining 0 holds everyone until requests-reset', async () => {
    const { clock, gov } = governor({});
    const reset = new Date(clock.t + 7000).toISOString();
    gov.observe(
      H({
        'anthropic-ratelimit-requests-limit': 50,
        'anthropic-ratelimit-requests-remaining': 0,
        'anthropic-ratelimit-requests-reset': reset,
      }),
    );
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 0 });
    assert.ok(clock.t - t0 >= 7000, `waited ${clock.t - t0} ms until the reset`);
  });

  it('a reported limit creates the bucket (even with no configured limit) and paces below it', async () => {
    const { clock, gov } = governor({});
    gov.observe(
      H({
        'anthropic-ratelimit-requests-limit': 60,
        'anthropic-ratelimit-requests-remaining': 2,
        'anthropic-ratelimit-requests-reset': new Date(clock.t + 58_000).toISOString(),
      }),
    );
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 0 });
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t, t0, 'the 2 remaining pass');
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t - t0, 1000, 'then the provider refill rate (60/min) paces requests: no 429');
    assert.equal(gov.snapshot().requests?.capacity, 60);
  });

  it('the configured limit stays the cap when the provider allows more; remaining lowers the level', async () => {
    const { gov } = governor({ tpm: 10_000 });
    gov.observe(
      H({
        'anthropic-ratelimit-tokens-limit': 400_000,
        'anthropic-ratelimit-tokens-remaining': 3000,
        'anthropic-ratelimit-tokens-reset': '2026-01-01T00:01:00Z',
      }),
    );
    const s = gov.snapshot();
    assert.equal(s.tokens?.capacity, 10_000);
    assert.equal(Math.round(s.tokens!.level), 3000);
  });

  it('input/output token variants: the tighter window wins', async () => {
    const { clock, gov } = governor({});
    gov.observe(
      H({
        'anthropic-ratelimit-input-tokens-limit': 30_000,
        'anthropic-ratelimit-input-tokens-remaining': 1_000,
        'anthropic-ratelimit-input-tokens-reset': new Date(clock.t + 60_000).toISOString(),
        'anthropic-ratelimit-output-tokens-limit': 8_000,
        'anthropic-ratelimit-output-tokens-remaining': 7_000,
        'anthropic-ratelimit-output-tokens-reset': new Date(clock.t + 5_000).toISOString(),
      }),
    );
    assert.equal(gov.snapshot().tokens?.capacity, 30_000);
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 1500 }); // 500 missing at 500 tokens/s = 1 s
    assert.equal(clock.t - t0, 1000);
  });

  it('retry-after (a 429) holds everyone; header names are case-insensitive; Headers objects work', async () => {
    const { clock, gov } = governor({});
    gov.observe(new Headers({ 'Retry-After': '3' }));
    const t0 = clock.t;
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t - t0, 3000);
    gov.observe({ 'Retry-After-Ms': '250' });
    await gov.acquire({ estimatedTokens: 0 });
    assert.equal(clock.t - t0, 3250);
  });

  it('ignores malformed headers', () => {
    const { gov } = governor({});
    gov.observe({ 'anthropic-ratelimit-requests-remaining': 'lots', 'anthropic-ratelimit-requests-reset': 'soon' });
    assert.equal(gov.snapshot().requests, undefined);
    assert.equal(gov.snapshot().holdUntil, 0);
  });
});

describe('abort', () => {
  it('a waiting acquire rejects with the signal reason as soon as it aborts (real timers)', async () => {
    const gov = createRateGovernor({ rpm: 1 });
    await gov.acquire({ estimatedTokens: 0 });
    const controller = new AbortController();
    const started = Date.now();
    const waiting = gov.acquire({ estimatedTokens: 0, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('step cancelled')), 30);
    await assert.rejects(waiting, /step cancelled/);
    assert.ok(Date.now() - started < 2000, 'rejected promptly');
    assert.equal(gov.snapshot().waiting, 0);
  });

  it('an aborted waiter in the queue does not block or reorder the ones behind it', async () => {
    const { gov } = governor({ rpm: 1 });
    await gov.acquire({ estimatedTokens: 0 });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const order: string[] = [];
    const a = gov.acquire({ estimatedTokens: 0 }).then(() => order.push('a'));
    const b = gov.acquire({ estimatedTokens: 0, signal: controller.signal }).then(
      () => order.push('b'),
      () => order.push('b-aborted'),
    );
    const c = gov.acquire({ estimatedTokens: 0 }).then(() => order.push('c'));
    await Promise.all([a, b, c]);
    assert.deepEqual(order, ['b-aborted', 'a', 'c']);
    assert.equal(gov.snapshot().granted, 3);
  });
});

describe('configuration', () => {
  it('MODEL_RPM / MODEL_TPM: unset = unlimited, numbers parsed, junk named', () => {
    assert.deepEqual(rateLimitsFromEnv({}), {});
    assert.deepEqual(rateLimitsFromEnv({ MODEL_RPM: '50', MODEL_TPM: '40000' }), { rpm: 50, tpm: 40000 });
    assert.deepEqual(rateLimitsFromEnv({ MODEL_RPM: '' }), {});
    assert.throws(
      () => rateLimitsFromEnv({ MODEL_TPM: 'fast' }),
      (e: unknown) => AgentError.isInstance(e) && e.where === 'MODEL_TPM',
    );
    assert.throws(() => rateLimitsFromEnv({ MODEL_RPM: '-1' }), /MODEL_RPM/);
  });

  it('sharedRateGovernor is one instance per process', () => {
    assert.equal(sharedRateGovernor({}), sharedRateGovernor({ MODEL_RPM: '1' }));
  });
});

describe('createGovernedLlmClient', () => {
  const request: LlmRequest = {
    model: 'm',
    max_tokens: 100,
    system: [{ type: 'text', text: 'x'.repeat(400) }],
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'y'.repeat(4000) }] }],
  };
  const response = (headers: Record<string, string>) => ({
    id: 'msg',
    model: 'm',
    content: [],
    stop_reason: 'end_turn',
    usage: { input_tokens: 2000, output_tokens: 10 },
    headers,
  });

  it('acquires before the call, feeds headers and real usage after', async () => {
    const clock = fakeClock();
    const gov = createRateGovernor({ tpm: 100_000, now: clock.now, sleep: clock.sleep });
    let calls = 0;
    const inner: LlmClient = {
      createMessage: async () => (
        calls++,
        response({
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '0',
          'anthropic-ratelimit-requests-reset': new Date(clock.t + 4000).toISOString(),
        })
      ),
    };
    const llm = createGovernedLlmClient(inner, gov);
    const estimate = estimateRequestTokens(request);
    assert.ok(estimate > 1000 && estimate < 1300, `estimate ${estimate}`);
    await llm.createMessage(request, { signal: new AbortController().signal });
    assert.equal(Math.round(gov.snapshot().tokens!.level), 100_000 - 2000, 'settled to the real input tokens');
    const t0 = clock.t;
    await llm.createMessage(request, { signal: new AbortController().signal });
    assert.ok(clock.t - t0 >= 4000, 'the second call waited for the provider reset');
    assert.equal(calls, 2);
  });

  it('a 429 holds the governor for its retry-after and is rethrown', async () => {
    const clock = fakeClock();
    const gov = createRateGovernor({ now: clock.now, sleep: clock.sleep });
    const inner: LlmClient = {
      createMessage: async () => {
        throw new AgentError(FailureType.ModelRateLimited, 'rate limited', {
          retryable: true,
          details: { retryAfterMs: 9000 },
        });
      },
    };
    const llm = createGovernedLlmClient(inner, gov);
    await assert.rejects(llm.createMessage(request, { signal: new AbortController().signal }), /rate limited/);
    assert.equal(gov.snapshot().holdUntil, clock.t + 9000);
  });
});
