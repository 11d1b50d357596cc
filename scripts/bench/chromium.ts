/**
 * Headless Chromium for the Web UI's browser test and screenshot: the distribution's
 * package driven by playwright-core (which ships no browser of its own).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
