/**
 * axe-core through DevTools (page.evaluate; the app's CSP refuses an injected <script>): the
 * serious and critical findings on the page as it stands, in light and dark, desktop and phone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { pollPage } from './browser.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
type Size = { width: number; height: number };
const DESKTOP: Size = { width: 1280, height: 800 };
const PHONE: Size = { width: 390, height: 844 };

export interface AxeFinding {
  where: string;
  id: string;
  help: string;
  targets: string[];
}

async function serious(page: Page, where: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.slice(0, 5).map((n) => String(n.target)) }));
  });
  return found.map((f) => ({ where, ...f }));
}

/**
 * Every serious/critical finding at desktop size and at a phone's, in both colour schemes (the
 * system's, which the app follows); the page is left at `desktop` size, light.
 */
export async function axeFindings(page: Page, desktop: Size = DESKTOP): Promise<AxeFinding[]> {
  const out: AxeFinding[] = [];
  // No transition mid-way when axe reads colours (the stylesheet honours reduced motion).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    for (const viewport of [desktop, PHONE]) {
      await page.setViewportSize(viewport);
      await pollPage(page, (w) => window.innerWidth === w, viewport.width);
      await page.waitForTimeout(100);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        out.push(...(await serious(page, `${colorScheme} ${viewport.width}×${viewport.height}`)));
      }
    }
  } finally {
    await page.setViewportSize(desktop);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  }
  return out;
}
