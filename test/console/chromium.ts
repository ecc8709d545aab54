import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser); scripts/test.sh installs it when it can. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium, or a failure saying how to install it (the browser tests never skip). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The console tests drive Debian's Chromium at ${CHROMIUM}, which is missing. Install it, then run the tests again:\n  sudo apt-get update && sudo apt-get install -y chromium`,
    );
  }
  // --no-sandbox: the tests may run as root (in containers), where Chromium refuses its sandbox.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}
