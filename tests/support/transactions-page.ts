/**
 * The transactions screen as the tests and the benchmark see it: by roles, accessible names and
 * ARIA attributes only (the names issue 2 fixes, and the grid's ARIA roles), never CSS classes.
 */
import type { Locator, Page } from 'playwright-core';

/**
 * The sync mark of an edit saved on this device and not yet confirmed ("Pending" is never used
 * for it: that word read like the card state, which the UI calls "Authorized").
 */
export const WAITING_TO_SYNC = 'Waiting to sync';

export const searchBox = (page: Page): Locator => page.getByRole('searchbox', { name: 'Search transactions' });

export const grid = (page: Page): Locator => page.getByRole('grid', { name: 'Transactions' });

/** Data rows of the grid: rows holding grid cells (the header row holds column headers). */
export function dataRows(page: Page): Locator {
  return grid(page).getByRole('row').filter({ has: page.getByRole('gridcell') });
}

/** The row at 0-based position `index` of the current result (aria-rowindex counts the header as 1). */
export function rowAt(page: Page, index: number): Locator {
  return grid(page).getByRole('row').and(page.locator(`[aria-rowindex="${index + 2}"]`));
}

/** The first-mirror progress bar (shown only while the first mirror runs). */
export const mirrorProgressBar = (page: Page): Locator => page.getByRole('progressbar');

/** The §5 page label ("1-50 of 3,000", or a single number for ≤ 1 result). */
export const pageLabel = (page: Page): Locator => page.getByLabel('Showing', { exact: true });

/** The result total the page label states, or null while no result is shown. */
export async function shownTotal(page: Page): Promise<number | null> {
  const text = ((await pageLabel(page).textContent()) ?? '').trim();
  if (!text) return null;
  const m = /of\s+([\d,]+)$/.exec(text) ?? /^([\d,]+)$/.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : null;
}

/** Waits until the page label states `total` results. */
export async function waitForTotal(page: Page, total: number, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last: number | null = null;
  while (Date.now() < deadline) {
    last = await shownTotal(page);
    if (last === total) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the transactions page shows ${last ?? 'no'} results, expected ${total}`);
}

/**
 * Chooses `option` in a coding combobox (GL account, department, location, tracking) of `scope`
 * (the bulk dialog or the drawer): types it, then picks the option by its whole name.
 */
export async function chooseCoding(scope: Locator, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).fill(option);
  await scope.getByRole('listbox', { name: label }).getByRole('option', { name: option, exact: true }).click();
}

/** The selection bar ("N selected", select all matching, Code N…). */
export const selectionBar = (page: Page): Locator => page.getByRole('region', { name: 'Selection' });

export interface RowText {
  index: number;
  cells: string[];
}

/** Grid column positions (0-based) of the data cells, as the header lists them. */
export const COLUMNS = {
  check: 0,
  date: 1,
  merchant: 2,
  cardholder: 3,
  amount: 4,
  gl: 5,
  department: 6,
  location: 7,
  memo: 8,
  status: 9,
} as const;

/** The rendered data rows with their cell texts (a virtualised grid renders a window only). */
export async function renderedRows(page: Page): Promise<RowText[]> {
  const rows = dataRows(page);
  const count = await rows.count();
  const out: RowText[] = [];
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const index = Number(await row.getAttribute('aria-rowindex')) - 2;
    out.push({ index, cells: (await row.getByRole('gridcell').allTextContents()).map((t) => t.trim()) });
  }
  return out;
}

/**
 * Every row of the current result, read by walking the grid with the keyboard (End/Home/PageDown
 * move the active row and the grid scrolls it into view), so the whole list is checked, not
 * only the rows that happen to be on screen.
 */
export async function allRows(page: Page, total: number, timeout = 60_000): Promise<RowText[]> {
  const seen = new Map<number, RowText>();
  const deadline = Date.now() + timeout;
  await grid(page).focus();
  await page.keyboard.press('Home');
  while (seen.size < total) {
    if (Date.now() > deadline) throw new Error(`read ${seen.size} of ${total} rows before the timeout`);
    for (const r of await renderedRows(page)) if (r.index >= 0 && r.index < total) seen.set(r.index, r);
    if (seen.size < total) await page.keyboard.press('PageDown');
    await page.waitForTimeout(50);
  }
  return [...seen.values()].sort((a, b) => a.index - b.index);
}
