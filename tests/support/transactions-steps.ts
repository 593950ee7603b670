/**
 * Steps of the e2e scenarios on the transactions screen that assert as they go (vitest's
 * `expect`), kept apart from transactions-page.ts, which the benchmark loads outside vitest.
 */
import { expect } from 'vitest';
import { waitForSyncStatus, type BrowserSession } from './browser.ts';
import { chooseCoding, mirrorProgressBar, selectionBar, waitForTotal } from './transactions-page.ts';

/** Mirror complete: the indicator says synced, no progress bar, and every visible row is counted. */
export async function waitForFirstMirror(session: BrowserSession, expected: number) {
  const { page } = session;
  await waitForTotal(page, expected, 120_000);
  await mirrorProgressBar(page).waitFor({ state: 'detached', timeout: 120_000 });
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  // "All changes synced" means the first mirror is complete (issue 8): no partial-results notice.
  expect(await page.getByTestId('partial-results').count()).toBe(0);
}

/** Picks a GL account in the bulk coding dialog, applies, and waits for the dialog to close. */
export async function bulkCodeSelection(session: BrowserSession, count: number, glLabel: string) {
  const { page } = session;
  await selectionBar(page).getByRole('button', { name: `Code ${count}` }).click();
  const dialog = page.getByRole('dialog', { name: `Code ${count} transactions` });
  await chooseCoding(dialog, 'GL account', glLabel);
  await dialog.getByRole('button', { name: `Apply to ${count}` }).click();
  await dialog.waitFor({ state: 'detached' });
}
