/**
 * The transactions screen as the tests and the benchmark see it: by roles and accessible names
 * only (the names issue 2 fixes, and the table's ARIA roles), never by CSS classes.
 */
import type { Locator, Page } from 'playwright-core';

export const searchBox = (page: Page): Locator => page.getByRole('searchbox', { name: 'Search transactions' }).or(
  page.getByLabel('Search transactions'),
).first();

/** Data rows of the table: rows holding cells (the header row holds column headers). */
export function dataRows(page: Page): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('gridcell').or(page.getByRole('cell')) });
}

export const firstDataRow = (page: Page): Locator => dataRows(page).first();

/** The first-mirror progress bar (absent once the first mirror is done). */
export const mirrorProgressBar = (page: Page): Locator => page.getByRole('progressbar');
