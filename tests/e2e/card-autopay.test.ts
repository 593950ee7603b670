/**
 * Issue 30, card autopay end to end (the built PWA, the real server on PGlite, headless Chromium
 * on a 390 px touch phone). Two charges clear today; the demo admin opens /treasury: "Card autopay"
 * shows the unpaid card balance (cleared charges no settlement covers, read from the server's rows) and
 * "Paid 3 days after charges clear". A threshold below that balance is set: the review names the
 * rule and that the unpaid balance is paid now; nothing is stored before "Save and pay"; then the
 * server holds the threshold and exactly one AUTOPAY settlement of that balance, whose charges are
 * its items, and the page shows nothing unpaid. Remove asks first, then the default rule is back.
 * Offline, Edit and Remove are disabled and the notice says why. The ledger checks; axe finds
 * nothing serious; nothing scrolls sideways.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../server/ledger/check.ts';
import { axeFindings } from '../support/axe.ts';
import { setNetwork, signInForOffline } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll, expectTouchTarget } from '../support/phone-page.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 390, height: 844 };

useServerAndBrowser({ transactions: 30 }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

const unpaid = async () => Number((await server.db.query<{ n: string }>(
  `SELECT coalesce(sum(t.amount), 0)::text AS n FROM transactions t WHERE t.business_id = $1 AND t.currency = 'USD' AND t.state = 'CLEARED'
      AND NOT t.deleted AND NOT EXISTS (SELECT 1 FROM card_settlement_items i WHERE i.business_id = t.business_id AND i.transaction_id = t.id)`,
  [server.businessId]))[0]!.n);
const autopayRows = () => server.db.query<{ net: string; transactions: number; items: number }>(
  `SELECT s.net::text, s.transactions, (SELECT count(*)::int FROM card_settlement_items i WHERE i.settlement_id = s.id) AS items
     FROM card_settlements s WHERE s.business_id = $1 AND s.cause = 'AUTOPAY'`, [server.businessId]);
const usd = (minor: number) => `$${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;

describe('card autopay: issue 30 end to end', () => {
  it('admin sets a threshold the unpaid balance reaches: paid once at once; removes it; offline says why', async () => {
    printBrowserLogsOnFailure({ admin: browser });
    const { page, context } = browser;
    await signInForOffline(page, ADMIN, PASSWORD);
    // Two charges that cleared today (the demo's own may all be settled already), on the admin's card.
    const [card] = await server.db.query<{ id: string; user_id: string }>(
      `SELECT c.id::text, c.user_id::text FROM cards c JOIN spend_users u ON u.id = c.user_id
        WHERE u.business_id = $1 AND u.email = $2 ORDER BY c.id LIMIT 1`, [server.businessId, ADMIN]);
    for (const [merchant, amount] of [['Autopay Air', 48_250], ['Autopay Hotel', 21_075]] as const) {
      await server.db.query(
        `WITH s AS (UPDATE businesses SET change_seq = change_seq + 1 WHERE id = $1 RETURNING change_seq)
         INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq)
         SELECT gen_random_uuid(), $1, $2, $3, $4, $5, 'USD', now(), 'CLEARED', s.change_seq FROM s`,
        [server.businessId, card!.id, card!.user_id, merchant, amount]);
    }
    const owed = await unpaid();
    expect(owed).toBeGreaterThanOrEqual(69_325);

    await page.goto('/treasury');
    const section = page.getByRole('region', { name: 'Card autopay' });
    const facts = section.getByRole('definition').first();
    await expect.poll(() => facts.textContent(), { timeout: 60_000 }).toContain(usd(owed));
    expect(await section.textContent()).toContain('Paid 3 days after charges clear');
    expect(await section.textContent()).toContain('Cleared charges not yet paid');
    await section.scrollIntoViewIfNeeded();
    await expectTouchTarget(section.getByRole('button', { name: 'Set threshold' }), 'Set threshold');
    await expectNoHorizontalScroll(page, '/treasury');
    expect(await axeFindings(page, PHONE)).toEqual([]);

    // A threshold below what is unpaid: the review says it is paid now; nothing is stored before confirming.
    const threshold = Math.floor(owed / 100) - 1;
    await section.getByRole('button', { name: 'Set threshold' }).click();
    const form = page.getByRole('dialog', { name: 'Set a card autopay threshold' });
    await form.getByLabel('Threshold (USD)').fill(String(threshold));
    await form.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Turn on card autopay?' });
    const words = (await review.textContent()) ?? '';
    expect(words).toContain(`When unpaid card spend reaches ${usd(threshold * 100)}, it is paid from Operating at once.`);
    expect(words).toContain(`The unpaid ${usd(owed)} already reaches it`);
    expect(await axeFindings(page, PHONE)).toEqual([]);
    expect(await server.db.query('SELECT 1 FROM wallet_settings WHERE business_id = $1 AND card_autopay_threshold IS NOT NULL', [server.businessId])).toEqual([]);
    await review.getByRole('button', { name: `Save and pay ${usd(owed)}` }).click();
    await expect.poll(autopayRows, { timeout: 30_000 }).toEqual([{ net: String(owed), transactions: expect.any(Number), items: expect.any(Number) }]);
    const [batch] = await autopayRows();
    expect(batch!.items).toBe(batch!.transactions);
    await expect.poll(() => facts.textContent(), { timeout: 30_000 }).toContain(usd(0));
    expect(await section.textContent()).toContain(`When unpaid card spend reaches ${usd(threshold * 100)}, it is paid from Operating at once.`);
    expect(await unpaid()).toBe(0);

    // Remove, asked first.
    await section.getByRole('button', { name: 'Remove' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove card autopay?' });
    expect(await remove.textContent()).toContain('paid 3 days after the charges clear');
    await remove.getByRole('button', { name: 'Remove threshold' }).click();
    await expect.poll(() => section.textContent(), { timeout: 30_000 }).toContain('Paid 3 days after charges clear');
    const [setting] = await server.db.query<{ t: string | null }>('SELECT card_autopay_threshold::text AS t FROM wallet_settings WHERE business_id = $1', [server.businessId]);
    expect(setting?.t ?? null).toBeNull();
    expect(await autopayRows()).toHaveLength(1);

    // Offline: the last read, Edit disabled, and why.
    await setNetwork(context, false);
    await section.getByText(/You’re offline: shown as last read/).waitFor({ timeout: 30_000 });
    expect(await section.getByRole('button', { name: 'Set threshold' }).isDisabled()).toBe(true);
    expect(await section.textContent()).toContain('Changing autopay needs a connection');
    await setNetwork(context, true);

    const report = await checkLedger(server.db, server.businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });
});
