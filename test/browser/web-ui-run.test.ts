/**
 * The browser suite (`npm run test:browser`; skipped in the default suite): the Temporal
 * Web UI in headless Chromium, as an operator uses it, on a live demo run (the model
 * server holds the review step's answer, so the run waits there). Claims:
 *   - the run's "Current Details" render as written: the steps as a list, the cost as
 *     `USD 0.…`, bold labels, and no math, no `$`, no literal markdown table or emphasis;
 *   - our `cancel` signal, picked from the signals the UI lists in its own "Send a Signal"
 *     dialog, reaches the run with the typed input: the history has the signal with it,
 *     the run ends cancelled with that reason, and the UI stops showing it RUNNING.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runResultOf, RUN_RESULT_MEMO } from '../../src/contracts/run-end.js';
import { progressQuery } from '../../src/workflows/run/messages.js';
import { startUiDemoRun, type UiDemoRun } from '../../scripts/bench/ui-demo-run.js';
import { launchChromium } from '../../scripts/bench/chromium.js';
import { BROWSER_TESTS_ENABLED } from './browser-harness.js';
import { until } from '../helpers/until.js';

const skip = BROWSER_TESTS_ENABLED ? false : 'the browser suite runs with npm run test:browser';
const HELD_STEP = 'verification.review';
const CANCEL_REASON = 'stopped from the Web UI by the browser test';

let run: UiDemoRun | undefined;
let browser: Browser | undefined;
let page: Page;
let shots: string;

/** A screenshot kept for whoever reads a failure (the path is in the assertion message). */
async function shot(name: string): Promise<string> {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path, fullPage: true }).catch(() => undefined);
  return path;
}

before(
  async () => {
    if (!BROWSER_TESTS_ENABLED) return;
    shots = await mkdtemp(join(tmpdir(), 'issue-agent-browser-'));
    browser = await launchChromium();
    run = await startUiDemoRun({ holdAtRule: 'review-diff' });
    const live = run;
    await until(
      `the run to reach ${HELD_STEP}`,
      async () => {
        const progress = await live.handle.query(progressQuery).catch(() => undefined);
        return progress?.stepId === HELD_STEP && progress.steps.length >= 3 ? progress : undefined;
      },
      90_000,
      300,
    );
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  },
  { timeout: 180_000 },
);

after(async () => {
  await browser?.close().catch(() => undefined);
  await run?.stop();
});

test(
  'the run page renders Current Details as written: steps list, USD amounts, no math or raw markdown',
  { skip },
  async () => {
    const live = run!;
    await page.goto(live.url);
    await page.getByRole('tab', { name: 'User Metadata' }).click();
    // The UI renders the markdown in its own /render page, inside an iframe.
    const details = page.frameLocator('iframe#user-metadata-current-details').locator('body');
    await details.getByText('Issue #1').waitFor({ timeout: 30_000 });
    const text = await details.innerText();
    const where = `(screenshot ${await shot('current-details')})\n${text}`;
    assert.match(text, /Step: verification\.review/, `the current step is shown ${where}`);
    assert.match(text, /Cost: USD 0\.\d{4}/, `the cost is written as USD 0.… ${where}`);
    for (const step of ['initial.understand', 'continuation.reproduce', 'continuation.implement'])
      assert.ok(text.includes(step), `the finished step ${step} is listed ${where}`);
    assert.ok(!text.includes('$') && !text.includes('\\('), `no $ and no \\( math delimiters reach the page ${where}`);
    assert.ok(!text.includes('|'), `no literal markdown table syntax ${where}`);
    assert.ok(!text.includes('**'), `no literal markdown emphasis ${where}`);
    assert.ok((await details.locator('li').count()) >= 3, `the steps are list items ${where}`);
    assert.ok((await details.locator('strong').count()) > 0, `the labels are rendered bold ${where}`);
    assert.equal(await details.locator('.katex, math').count(), 0, `nothing is rendered as math ${where}`);
  },
);

test("a cancel signal sent through the UI's Send a Signal dialog reaches the run", { skip }, async () => {
  const live = run!;
  await page.goto(live.url);
  await page.getByRole('button', { name: 'More Actions' }).click();
  await page.getByRole('menuitem', { name: 'Send a Signal' }).click();
  // The page keeps one modal per action, twice over; only the one shown is open.
  const dialog = page.locator('dialog[open]');
  await dialog.getByRole('heading', { name: 'Send a Signal' }).waitFor();
  // The UI lists the signals the run's worker declares (a query it answers): ours among them.
  await dialog.getByTestId('signal-select-button').click();
  await dialog.getByRole('option', { name: 'cancel', exact: true }).waitFor({ timeout: 15_000 });
  const options = await dialog.getByRole('option').allInnerTexts();
  for (const name of ['retry', 'cancel', 'raiseBudget'])
    assert.ok(
      options.some((o) => o.trim() === name),
      `the dialog offers ${name}: ${JSON.stringify(options)} (${await shot('signal-options')})`,
    );
  await dialog.getByRole('option', { name: 'cancel', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Data' }).fill(JSON.stringify({ reason: CANCEL_REASON }));
  await shot('signal-filled');
  await dialog.getByTestId('confirm-modal-button').click();
  await dialog.waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);

  const status = await until(
    'the run to end',
    async () => {
      const name = (await live.handle.describe().catch(() => undefined))?.status.name;
      return name === undefined || name === 'RUNNING' ? undefined : name;
    },
    60_000,
    300,
  );
  const history = await live.handle.fetchHistory();
  const signals = (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((a) => a?.signalName === 'cancel');
  assert.equal(signals.length, 1, 'one cancel signal in the history');
  const payload = signals[0]!.input?.payloads?.[0];
  assert.ok(payload?.data, 'the signal carries the input typed in the dialog');
  assert.deepEqual(JSON.parse(Buffer.from(payload.data).toString('utf8')), { reason: CANCEL_REASON });

  const description = await live.handle.describe();
  const result = runResultOf(description.memo?.[RUN_RESULT_MEMO]);
  assert.ok(result, `the ended run (${status}) carries its result in the ${RUN_RESULT_MEMO} memo`);
  assert.equal(result.outcome, 'cancelled');
  assert.equal(result.reason, CANCEL_REASON);
  // One outcome for a cancel, whichever way it is sent: the UI's signal ends the run as its Cancel button does.
  assert.equal(status, 'CANCELLED', 'a cancel signal from the UI ends the run Canceled');

  // The UI sees it end too (its run page refreshes on its own).
  await page.goto(live.url);
  await page
    .getByText(/^(Canceled|Cancelled)$/i)
    .first()
    .waitFor({ timeout: 30_000 });
  assert.equal(
    await page.getByText('Running', { exact: true }).count(),
    0,
    `no longer RUNNING (${await shot('ended')})`,
  );
});
