/**
 * The browser suite's switches and its Chromium: the distribution's package driven by
 * playwright-core (which ships no browser). Skipped in the default suite; `npm run
 * test:browser` turns it on.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const BROWSER_TESTS_ENABLED = process.env.ISSUE_AGENT_BROWSER_TESTS === '1';

/** CHROMIUM_PATH, else the Debian/Ubuntu package's binary. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (as root) or set CHROMIUM_PATH`,
    );
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}
