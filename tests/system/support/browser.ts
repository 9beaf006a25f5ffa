import { chromium, type Browser } from 'playwright-core';
import { testServers } from '@postbus/testing';

/** A headless Chromium (`CHROMIUM_PATH`) for the tests that drive pages as a person would. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: testServers.chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
