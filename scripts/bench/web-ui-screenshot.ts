/**
 * Regenerates docs/images/web-ui-demo-run.png: runs the demo issue to its end on a private
 * dev server (its own ports, Web UI on), then screenshots the finished run's page in
 * headless Chromium (playwright-core driving the distribution's package: Debian
 * `apt-get install -y chromium`, or CHROMIUM_PATH) with its "User Metadata" tab open, where
 * the run's summary and Current Details are.
 *
 *   npx tsx scripts/bench/web-ui-screenshot.ts [--out PATH] [--tab NAME] [--keep]
 *
 * --tab picks another tab of the run page (e.g. Timeline); --keep leaves the server up.
 */
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { launchChromium } from './chromium.js';
import { startUiDemoRun } from './ui-demo-run.js';

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const out = resolve(flag(argv, '--out') ?? join(PROJECT_ROOT, 'docs', 'images', 'web-ui-demo-run.png'));
  const tab = flag(argv, '--tab') ?? 'User Metadata';
  const run = await startUiDemoRun();
  try {
    const result = await run.handle.result();
    process.stdout.write(`run ${run.workflowId}: ${result.outcome}: ${result.reason}\n`);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1120 } });
      await page.goto(run.url);
      await page.getByRole('tab', { name: tab }).click();
      if (tab === 'User Metadata')
        await page
          .frameLocator('iframe#user-metadata-current-details')
          .getByText(/^Issue #\d+/)
          .waitFor({ timeout: 30_000 });
      else await page.waitForTimeout(3000);
      await page.screenshot({ path: out });
      process.stdout.write(`${run.url}\nwrote ${out}\n`);
    } finally {
      await browser.close();
    }
    if (argv.includes('--keep')) {
      process.stdout.write(`server kept at ${run.server.uiUrl} (pid ${run.server.pid()}); Ctrl-C to stop\n`);
      await new Promise((r) => process.once('SIGINT', r));
    }
    return 0;
  } finally {
    await run.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
