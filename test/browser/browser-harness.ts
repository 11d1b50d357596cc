/**
 * The browser suite's switch: skipped in the default suite, `npm run test:browser` turns
 * it on (it needs the distribution's chromium; see scripts/bench/chromium.ts).
 */
export const BROWSER_TESTS_ENABLED = process.env.ISSUE_AGENT_BROWSER_TESTS === '1';
