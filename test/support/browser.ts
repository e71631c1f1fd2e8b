// Debian's Chromium driven headless through playwright-core, for the browser tests (/docs,
// /dashboard). Required in CI (CI=true): there a missing browser fails the suite instead of
// skipping the test.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** true when the browser tests of `what` must be skipped (and says so) */
export function browserMissing(what: string): boolean {
  const missing = !existsSync(CHROMIUM);
  if (missing && process.env.CI)
    throw new Error(
      `${CHROMIUM} is missing: the ${what} browser test is required in CI (apt-get install -y chromium)`,
    );
  if (missing)
    console.warn(
      `skipped: ${CHROMIUM} is missing (apt-get install -y chromium); the ${what} browser test did not run`,
    );
  return missing;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
