/**
 * Issue 27, end to end at phone size (390 px, touch), on real parts only: the built PWA served by
 * the real server (PGlite) in headless Chromium.
 *
 * The demo employee plans a trip to New York (the airport picker, dates from tomorrow), searches
 * flights from Boston, books an in-policy one (the confirmation names price, card and policy
 * outcome) and a hotel, sees both confirmation codes and the charges on the trip (the total with
 * its currency). Offline, a reload reads the itinerary and the codes from the mirror; an
 * out-of-pocket taxi claim filed offline is linked to the trip from its suggested spend; online
 * the link lands on the server exactly once (trip_spend_events). axe finds nothing serious on the
 * trip page. Then a Business-class flight on that short route waits for approval, and the
 * employee's manager approves it in a second browser: the booking becomes BOOKED and is charged.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, setNetwork, signIn, signInForOffline, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { axeFindings } from '../support/axe.ts';
import { userByEmail } from '../support/db-checks.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';
import { formatMoney } from '../../src/lib/format.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const MANAGER = 'manager@demo.test';
const PASSWORD = 'demo-password-1';
const TRIP = 'E2E New York client visit';
const TAXI = 'E2E Yellow Cab';
const PHONE = { width: 390, height: 844 };

useServerAndBrowser({ transactions: 50 }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

/** The UTC day `n` days from now (the browser runs in the machine's zone, UTC here). */
const day = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const tripId = async (): Promise<string> =>
  (await server.db.query<{ id: string }>('SELECT id::text AS id FROM trips WHERE business_id = $1 AND name = $2', [server.businessId, TRIP]))[0]!.id;

/** Types into an airport picker and chooses the airport whose label names the code. */
async function pickAirport(scope: Page | Locator, label: string, code: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(code);
  await scope.getByRole('listbox', { name: label }).getByRole('option', { name: `(${code})` }).tap();
  await expect.poll(() => box.inputValue()).toContain(`(${code})`);
}

/** Searches with the form as it stands and books (or requests) the cheapest offer whose button starts with `verb`; answers the dialog's text. */
async function bookCheapest(page: Page, form: string, offers: string, verb: 'Book' | 'Request'): Promise<string> {
  await page.getByRole('form', { name: form }).getByRole('button', { name: form }).tap();
  const list = page.getByRole('list', { name: offers });
  await list.waitFor({ state: 'visible', timeout: 30_000 });
  await list.getByRole('button', { name: new RegExp(`^${verb} `) }).first().tap();
  const dialog = page.getByRole('dialog', { name: verb === 'Book' ? 'Book and pay?' : 'Request this booking?' });
  await dialog.waitFor({ state: 'visible' });
  const text = (await dialog.textContent())!.replace(/\s+/g, ' ');
  await dialog.getByRole('button', { name: verb === 'Book' ? /^Book for / : 'Request approval' }).tap();
  await dialog.waitFor({ state: 'detached', timeout: 30_000 });
  return text;
}

/** The booking's confirmation code from the result notice. */
async function bookedCode(page: Page): Promise<string> {
  const result = page.getByTestId('booking-result');
  await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/Booked: .* Confirmation [A-Z0-9]{6}/);
  return result.locator('strong.mono').textContent() as Promise<string>;
}

type BookingFact = { kind: string; status: string; price_amount: string; cabin: string | null; transaction_id: string | null };
async function bookings(id: string): Promise<BookingFact[]> {
  return server.db.query<BookingFact>(
    `SELECT kind, status, price_amount::text AS price_amount, payload->>'cabin' AS cabin, transaction_id::text AS transaction_id
       FROM travel_bookings WHERE trip_id = $1 ORDER BY created_at`,
    [id],
  );
}

describe('travel at phone size, end to end', () => {
  it('plans, books a flight and a hotel, reads them offline, links a taxi claim offline that lands once; axe clean', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);

    // Plan the trip: New York through the airport picker, tomorrow to three days ahead.
    await page.goto('/travel');
    await page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Plan a trip' }).first().tap();
    const plan = page.getByRole('dialog', { name: 'Plan a trip' });
    await plan.getByLabel('Trip name').fill(TRIP);
    await pickAirport(plan, 'Destination', 'JFK');
    await plan.getByLabel('Start date').fill(day(1));
    await plan.getByLabel('End date').fill(day(3));
    await plan.getByLabel('Purpose').fill('Quarterly review with the client');
    await plan.getByRole('button', { name: 'Plan trip' }).tap();
    await page.getByRole('heading', { name: TRIP, level: 1 }).waitFor({ timeout: 30_000 });
    await waitForSyncStatus(page, 'All changes synced');
    const id = await tripId();

    // Book: a flight from Boston (Economy: in policy), then a hotel in New York.
    await page.getByRole('link', { name: 'Book flights and hotels' }).tap();
    await page.getByRole('heading', { name: 'Book travel', level: 1 }).waitFor();
    await pickAirport(page.getByRole('form', { name: 'Search flights' }), 'From', 'BOS');
    await page.getByLabel('Cabin').selectOption({ label: 'Economy' });
    const flightDialog = await bookCheapest(page, 'Search flights', 'Flight offers', 'Book');
    const [flight] = await bookings(id);
    expect(flight).toMatchObject({ kind: 'FLIGHT', status: 'BOOKED', cabin: 'ECONOMY' });
    const flightPrice = formatMoney(Number(flight!.price_amount), 'USD');
    expect(flightDialog).toContain(`Price${flightPrice}`);
    expect(flightDialog).toContain('Charged to the trip’s virtual card now');
    expect(flightDialog).toContain('In policy: it is booked at once.');
    const flightCode = await bookedCode(page);

    await page.getByRole('tab', { name: 'Hotels' }).tap();
    const hotelDialog = await bookCheapest(page, 'Search hotels', 'Hotel offers', 'Book');
    expect(hotelDialog).toContain('In policy');
    const hotelCode = await bookedCode(page);
    expect(hotelCode).not.toBe(flightCode);
    const booked = await bookings(id);
    expect(booked.map((b) => [b.kind, b.status])).toEqual([['FLIGHT', 'BOOKED'], ['HOTEL', 'BOOKED']]);
    const charged = booked.reduce((s, b) => s + Number(b.price_amount), 0);

    // The trip: both codes in the itinerary, the two charges in its total.
    await page.getByTestId('booking-result').getByRole('link', { name: 'Back to the trip' }).tap();
    const itinerary = page.getByRole('region', { name: 'Itinerary' });
    const total = page.getByTestId('trip-total');
    const readTrip = async () => {
      await expect.poll(() => itinerary.textContent(), { timeout: 30_000 }).toContain(flightCode);
      expect(await itinerary.textContent()).toContain(hotelCode);
      expect(await itinerary.textContent()).toMatch(/BOS → .* JFK/);
      await expect.poll(() => total.textContent(), { timeout: 30_000 }).toContain(`Total ${formatMoney(charged, 'USD')}`);
    };
    await readTrip();

    // Offline, a reload: the trip, its itinerary and codes from the service worker and the mirror.
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    expect((await page.reload())?.fromServiceWorker()).toBe(true);
    await page.getByRole('heading', { name: TRIP, level: 1 }).waitFor({ timeout: 30_000 });
    await readTrip();

    // Offline, an out-of-pocket taxi claim dated today (the day before the trip: suggested for it).
    await page.goto('/reimbursements');
    await page.getByRole('button', { name: 'New', exact: true }).tap();
    await page.getByRole('menuitem', { name: 'Out-of-pocket' }).tap();
    const pocket = page.getByRole('dialog', { name: 'New out-of-pocket claim' });
    await pocket.getByLabel('Amount', { exact: true }).fill('38.50');
    await pocket.getByLabel('Date', { exact: true }).fill(day(0));
    await pocket.getByLabel('Merchant').fill(TAXI);
    await pocket.getByRole('button', { name: 'Submit' }).tap();
    await pocket.waitFor({ state: 'detached' });

    await page.goto(`/travel/trips/${id}`);
    const suggested = page.getByRole('region', { name: 'Suggested spend' });
    await suggested.getByRole('button', { name: `Link ${TAXI}` }).tap();
    await expect.poll(() => itinerary.textContent(), { timeout: 30_000 }).toContain(TAXI);
    await expect.poll(() => total.textContent()).toContain(`Total ${formatMoney(charged + 3850, 'USD')}`);
    // The trip's own mark says the link is on this device only, until the server has it.
    const heading = page.getByRole('heading', { name: TRIP, level: 1 }).locator('..');
    await expect.poll(() => heading.textContent()).toContain(WAITING_TO_SYNC);

    // Online: the claim and its link land once.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(() => heading.textContent(), { timeout: 30_000 }).not.toContain(WAITING_TO_SYNC);
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const links = await server.db.query<{ object_type: string; merchant: string | null; amount: string | null }>(
      `SELECT e.object_type, r.merchant, r.amount::text AS amount FROM trip_spend_events e
         LEFT JOIN reimbursements r ON r.id = e.object_id AND e.object_type = 'reimbursement'
        WHERE e.business_id = $1 AND e.trip_id = $2 AND e.linked_by = $3 ORDER BY e.object_type`,
      [server.businessId, id, employee.id],
    );
    expect(links.map((l) => l.object_type)).toEqual(['reimbursement', 'transaction', 'transaction']);
    expect(links[0]).toMatchObject({ merchant: TAXI, amount: '3850' });
    const claims = await server.db.query('SELECT 1 FROM reimbursements WHERE business_id = $1 AND merchant = $2', [server.businessId, TAXI]);
    expect(claims).toHaveLength(1);

    expect(await axeFindings(page, PHONE)).toEqual([]);
  }, 300_000);

  it('an out-of-policy Business flight waits for the manager, who approves it in a second browser: BOOKED', async () => {
    const { page } = browser;
    const id = await tripId();
    await page.goto(`/travel/trips/${id}/book`);
    await pickAirport(page.getByRole('form', { name: 'Search flights' }), 'From', 'BOS');
    await page.getByLabel('Cabin').selectOption({ label: 'Business' });
    const dialog = await bookCheapest(page, 'Search flights', 'Flight offers', 'Request');
    expect(dialog).toContain('Charged to the trip’s virtual card when approved');
    expect(dialog).toContain('Needs approval');
    await expect.poll(() => page.getByTestId('booking-result').textContent(), { timeout: 30_000 }).toContain('It waits for approval');
    const business = async () => (await bookings(id)).filter((b) => b.cabin === 'BUSINESS');
    expect(await business()).toMatchObject([{ status: 'PENDING_APPROVAL', transaction_id: null }]);

    let manager: BrowserSession | undefined;
    try {
      manager = await launchBrowser({ baseURL: server.url });
      printBrowserLogsOnFailure({ browser, manager });
      const m = manager.page;
      await m.goto('/');
      await signIn(m, MANAGER, PASSWORD);
      await waitForSyncStatus(m, 'All changes synced', 120_000);
      await m.goto('/approvals');
      const row = m.getByRole('grid', { name: 'Approvals' }).getByRole('row').filter({ hasText: TRIP });
      await row.click({ timeout: 30_000 });
      const drawer = m.getByRole('dialog').filter({ hasText: 'Out of policy' });
      await expect.poll(() => drawer.textContent(), { timeout: 30_000 }).toContain('Business');
      await drawer.getByRole('button', { name: 'Approve', exact: true }).click();
      // Approving charges the card: the app asks first, naming the price.
      const confirm = m.getByRole('dialog').filter({ hasText: 'charges its price to the trip’s virtual card' });
      await confirm.getByText(/^Approve 1 travel booking · .+ USD$/).waitFor();
      await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
      await waitForSyncStatus(m, 'All changes synced', 60_000);
      await expect.poll(async () => (await business())[0]?.status, { timeout: 30_000 }).toBe('BOOKED');
      expect((await business())[0]!.transaction_id).not.toBeNull();
    } finally {
      await manager?.close();
    }

    // The employee's trip shows the new flight with its confirmation code once it syncs.
    await page.goto(`/travel/trips/${id}`);
    const code = (await server.db.query<{ code: string }>(
      `SELECT confirmation_code AS code FROM travel_bookings WHERE trip_id = $1 AND payload->>'cabin' = 'BUSINESS'`, [id],
    ))[0]!.code;
    await expect.poll(() => page.getByRole('region', { name: 'Itinerary' }).textContent(), { timeout: 60_000 }).toContain(code);
  }, 240_000);
});
