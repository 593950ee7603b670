/**
 * Issue 14, end to end: Team → Departments and Entities on real parts only — the built PWA
 * (dist/) served by the real server (PGlite) in Debian's headless Chromium.
 *
 * The admin creates a department with an owner chosen in the people picker, renames it, creates
 * a business entity (country and currency from the full lists), and a bill booked under that
 * entity (seeded through the API) shows the entity's name in its drawer after an offline reload:
 * entities are mirrored reference data. axe finds nothing serious on either page.
 */
import { describe, expect, it } from 'vitest';
import { createBill, updateBill } from '../../schema/api/calls-bills.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { type BrowserSession, openSection, pollPage, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';
const DEPARTMENT = 'E2E Research';
const RENAMED = 'E2E Research & Development';
const ENTITY = 'E2E Robotics GmbH';

useServerAndBrowser({ transactions: 20 });

/** At a 360 px phone width the page does not scroll sideways (the list fits; owners go under the name). */
async function expectFitsPhone(page: BrowserSession['page'], where: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 740 });
  await pollPage(page, () => window.innerWidth === 360, undefined);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where}: ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('team organisation pages, end to end', () => {
  it('creates a department with an owner, renames it, creates an entity, and names a bill’s entity offline', async () => {
    printBrowserLogsOnFailure({ browser });
    const [owner] = await server.db.query<{ id: string; name: string }>(
      `SELECT id::text, first_name || ' ' || last_name AS name FROM spend_users WHERE business_id = $1 AND email = 'owner@demo.test'`,
      [server.businessId],
    );
    const { page } = browser;
    await signInForOffline(page, ADMIN, PASSWORD);
    await page.goto('/team/departments');
    await page.getByRole('heading', { name: 'Departments', level: 1 }).waitFor();
    const table = page.getByRole('grid', { name: 'Departments' });
    await table.getByRole('row').nth(1).waitFor();

    // A new department ('n' opens the form), its owner picked by typing part of their name.
    await page.keyboard.press('n');
    const create = page.getByRole('dialog', { name: 'New department' });
    await create.getByLabel('Name').fill(DEPARTMENT);
    await create.getByRole('combobox', { name: 'Add an owner' }).fill(owner!.name.split(' ')[0]!);
    await create.getByRole('option', { name: new RegExp(`^${owner!.name} · owner@demo\\.test$`) }).click();
    await create.getByRole('listitem').filter({ hasText: owner!.name }).waitFor();
    await create.getByRole('button', { name: 'Create department' }).click();
    await create.waitFor({ state: 'detached' });
    const row = (name: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
    await row(DEPARTMENT).getByRole('gridcell', { name: owner!.name }).first().waitFor();
    await row(DEPARTMENT).getByText('0 people').waitFor();
    const stored = async () =>
      server.db.query<{ name: string; owner_ids: string[] }>(
        `SELECT name, owner_ids::text[] AS owner_ids FROM departments WHERE business_id = $1 AND name LIKE 'E2E%' AND NOT deleted`,
        [server.businessId],
      );
    expect(await stored()).toEqual([{ name: DEPARTMENT, owner_ids: [owner!.id] }]);

    // Renamed from the row's menu; a duplicate name is refused first, in the server's words.
    await row(DEPARTMENT).getByRole('button', { name: `Edit ${DEPARTMENT}` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: `Rename ${DEPARTMENT}` });
    const existing = (await table.getByRole('rowheader').first().innerText()).split('\n')[0]!.trim();
    await rename.getByLabel('Name').fill(existing.toUpperCase());
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.getByText(`A department named '${existing.toUpperCase()}' already exists.`).waitFor();
    await rename.getByLabel('Name').fill(RENAMED);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.waitFor({ state: 'detached' });
    await row(RENAMED).waitFor();
    await expect.poll(stored, { timeout: 30_000 }).toEqual([{ name: RENAMED, owner_ids: [owner!.id] }]);
    // '/' searches, by name or owner.
    await page.keyboard.press('/');
    await page.keyboard.type('development');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Search departments' }).fill('');
    expect(await axeFindings(page)).toEqual([]);
    await expectFitsPhone(page, 'Departments');

    // An entity: Germany chosen by typing, its currency follows (EUR).
    await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Entities' }).click();
    await page.getByRole('heading', { name: 'Entities', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New entity' }).first().click();
    const entityForm = page.getByRole('dialog', { name: 'New entity' });
    await entityForm.getByLabel('Legal name').fill(ENTITY);
    await entityForm.getByRole('combobox', { name: 'Country' }).fill('Germ');
    await entityForm.getByRole('option', { name: 'Germany' }).click();
    expect(await entityForm.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('EUR · Euro');
    await entityForm.getByRole('button', { name: 'Create entity' }).click();
    await entityForm.waitFor({ state: 'detached' });
    const entities = page.getByRole('grid', { name: 'Entities' });
    const entityRow = entities.getByRole('row').filter({ hasText: ENTITY });
    await entityRow.getByRole('gridcell', { name: 'Germany' }).waitFor();
    await entityRow.getByRole('gridcell', { name: 'EUR' }).waitFor();
    const [entity] = await server.db.query<{ id: string; country: string; currency: string }>(
      `SELECT id::text, country, currency FROM business_entities WHERE business_id = $1 AND name = $2 AND NOT deleted`,
      [server.businessId, ENTITY],
    );
    expect(entity).toMatchObject({ country: 'DE', currency: 'EUR' });
    expect(await axeFindings(page)).toEqual([]);
    await expectFitsPhone(page, 'Entities');

    // A bill booked under the entity (seeded through the API), mirrored like any bill.
    const [vendor] = await server.db.query<{ id: string }>(`SELECT id::text FROM vendors WHERE business_id = $1 AND name = $2`, [server.businessId, VENDOR]);
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const bill = await admin.call(createBill, {
      body: { vendor_id: vendor!.id, invoice_number: 'INV-E2E-ENTITY', invoice_date: day(-2), due_date: day(20), currency: 'EUR', line_items: [{ description: 'Sensors', amount: 120_000 }] },
    });
    await admin.call(updateBill, { params: { bill_uuid: bill.id }, body: { entity_id: entity!.id } });
    await openSection(page, 'Bills');
    await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
    const bills = page.getByRole('grid', { name: 'Bills' }).getByRole('row').filter({ hasText: 'INV-E2E-ENTITY' });
    await bills.waitFor({ timeout: 30_000 });
    await waitForSyncStatus(page, 'All changes synced', 30_000);

    // Offline, after a reload from the service worker: the drawer names the entity from the mirror.
    await setNetwork(page.context(), false);
    await waitForSyncStatus(page, 'Offline');
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    await bills.getByRole('gridcell').nth(2).click();
    const drawer = page.getByRole('dialog', { name: `${VENDOR} · INV-E2E-ENTITY` });
    await drawer.waitFor();
    await drawer.getByText(ENTITY).waitFor();

    // The entities page offline: the list from this device, writes said to need a connection.
    await drawer.getByRole('button', { name: 'Close details' }).click();
    await page.goto('/team/entities').catch(() => undefined);
    await page.getByRole('heading', { name: 'Entities', level: 1 }).waitFor();
    await page.getByText('This is the copy of the entities on this device. Adding, renaming, deleting and changing owners need a connection.').waitFor();
    await page.getByRole('grid', { name: 'Entities' }).getByRole('row').filter({ hasText: ENTITY }).waitFor();
    expect(await page.getByRole('button', { name: 'New entity' }).first().isDisabled()).toBe(true);
    await setNetwork(page.context(), true);
  });
});
