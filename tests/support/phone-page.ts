/**
 * What the phone end-to-end tests (tests/e2e/phone.test.ts) check a page with: on screen, whole,
 * big enough for a finger, nothing sideways, and how a list scrolls and which row to tap.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { pollPage } from './browser.ts';

/**
 * No sideways page scroll: the document is no wider than the window, and the window no wider than
 * the screen (a mobile browser widens its layout viewport to fit content that overflows, so
 * `innerWidth` alone would grow with the overflow and hide it).
 */
export async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  const screen = page.viewportSize()?.width ?? innerWidth;
  expect(scrollWidth, `${where}: page ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
  expect(innerWidth, `${where}: the layout is ${innerWidth} px wide on a ${screen} px screen`).toBeLessThanOrEqual(screen);
}

/** The element's box lies wholly inside the viewport (and it has a size). */
export async function expectInViewport(loc: Locator, what: string): Promise<void> {
  const box = await loc.boundingBox();
  expect(box, `${what} has no box`).not.toBeNull();
  const { width, height } = await loc.page().evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  const b = box!;
  expect(b.width, `${what} width`).toBeGreaterThan(0);
  expect(
    b.x >= 0 && b.y >= 0 && b.x + b.width <= width + 0.5 && b.y + b.height <= height + 0.5,
    `${what} at ${JSON.stringify(b)} is outside the ${width}×${height} viewport`,
  ).toBe(true);
}

/** Its text is not cut: nothing overflows the element's box. */
export async function expectWhole(loc: Locator, what: string): Promise<void> {
  const { scrollWidth, clientWidth } = await loc.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, `${what}: text ${scrollWidth} px in a ${clientWidth} px box`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Scrolls a list by `px` (its grid when the grid scrolls, else the page around it) and answers
 * the scroller's offset afterwards.
 */
export const scrollList = (page: Page, grid: string, px: number) =>
  page.evaluate(
    ([name, by]) => {
      let el: HTMLElement | null = document.querySelector(`[role="grid"][aria-label="${name}"]`);
      while (el && !(el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
      const scroller = el ?? (document.scrollingElement as HTMLElement);
      scroller.scrollBy(0, by);
      return scroller.scrollTop;
    },
    [grid, px] as const,
  );

/** A data row of a grid lying wholly in the middle band of the screen (the one to tap). */
export async function rowInView(page: Page, grid: string): Promise<Locator> {
  const index = await pollPage(
    page,
    (name) => {
      const rows = [...document.querySelectorAll(`[role="grid"][aria-label="${name}"] [role="row"][aria-rowindex]`)];
      const found = rows.find((r) => {
        const b = r.getBoundingClientRect();
        return Number(r.getAttribute('aria-rowindex')) > 1 && b.top > innerHeight * 0.3 && b.bottom < innerHeight * 0.7;
      });
      return found?.getAttribute('aria-rowindex') ?? null;
    },
    grid,
  );
  return page.getByRole('grid', { name: grid }).locator(`[role="row"][aria-rowindex="${index}"]`);
}

/** At least 44 px square: a comfortable touch target. */
export async function expectTouchTarget(loc: Locator, what: string): Promise<void> {
  const b = (await loc.boundingBox())!;
  expect(Math.round(b.height), `${what} height`).toBeGreaterThanOrEqual(44);
  expect(Math.round(b.width), `${what} width`).toBeGreaterThanOrEqual(44);
}

/** Keyboard hints (<kbd>, the grid's "j/k move" line) that are visible on the page. */
export const visibleKeyboardHints = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('kbd, .table-footer span')]
      .filter((el) => el.tagName === 'KBD' || /j\/k|Enter open/.test(el.textContent ?? ''))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      })
      .map((el) => el.textContent?.trim() ?? ''),
  );
