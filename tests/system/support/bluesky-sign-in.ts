import type { Browser } from 'playwright-core';
import { newConnectUrl, platformUser } from './handoff';
import type { RunningSystem } from './system';

/**
 * A person connecting Bluesky as they would in a browser: a sandbox account `user` (known as `handle`),
 * a connect link for the key, "Sign in with Bluesky" with the handle typed, the account ticked and
 * approved on the sandbox's consent page; resolves with the link once Postbus says "Bluesky connected".
 */
export async function signInWithBluesky(
  system: RunningSystem,
  browser: Browser,
  apiKey: string,
  account: { user: string; handle: string },
): Promise<{ requestId: string; connectUrl: string }> {
  await platformUser(system, 'bluesky', account.user);
  const link = await newConnectUrl(system, apiKey, 'bluesky');
  const page = await browser.newPage();
  try {
    await page.goto(link.connectUrl);
    await page.locator('#handle').fill(account.handle);
    await page.getByRole('button', { name: 'Sign in with Bluesky' }).click();
    await page.getByLabel(`@${account.user}`).check();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Bluesky connected' }).waitFor();
  } finally {
    await page.close();
  }
  return link;
}
