/**
 * Signing in for the browser tests: staff with a user name and password on the sign-in screen, as people do; or
 * a token through the launch link (`/#token=...`), the way the operator sends a player and the single sign-on
 * returns staff, for tests about another screen.
 */
import type { Page } from 'playwright-core';

/** Signs in on the sign-in screen and waits for the signed-in header. */
export async function signInWithPassword(page: Page, url: string, username: string, password: string) {
  await page.goto(`${url}/`);
  await page.locator('#staff-username').fill(username);
  await page.locator('#staff-password').fill(password);
  await page.locator('.staff-sign-in button[type=submit]').click();
  await page.locator('.app-header .who').waitFor({ timeout: 15_000 });
}

/** Opens the console with `token` from a launch link, then goes to `hash` (default: the role's home). */
export async function openWithToken(page: Page, url: string, token: string, hash = '#/') {
  await page.goto(`${url}/#token=${token}`);
  await page.locator('.app-header .who').waitFor({ timeout: 15_000 });
  if (hash !== '#/') await page.evaluate((h) => (window.location.hash = h), hash);
}
