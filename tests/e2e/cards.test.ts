/**
 * Issue 10, end to end: cards on real parts only — the built PWA (dist/) served by the real server
 * (PGlite) in Debian's headless Chromium.
 *
 * 1. The demo employee opens Cards, goes offline and locks one of their cards in one click: the
 *    tile says "Locked on this device · the card still works until this syncs" at once and still does after an offline reload (from the
 *    service worker and the mirror) while the server still has the card active. Back online the
 *    lock lands: the server has the card LOCKED, through exactly one request (one new
 *    Idempotency-Key), the tile says "Locked", and a purchase the card network sends for that card
 *    is declined ("The card is locked.") with no transaction written.
 * 2. An admin finds 50 cards in the All cards table by search, selects all of them with the header
 *    checkbox and locks them: one bulk call, every one LOCKED on the server, the rest untouched.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { issueCard, simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { shownUserSql } from '../../server/domain/hidden-users.ts';
import { apiSignIn } from '../support/api.ts';
import { type BrowserSession, openSection, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { idempotencyKeys, keyScope, userByEmail } from '../support/db-checks.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const FLEET = 'E2E Fleet';
const FLEET_SIZE = 50;

const openSession = useServerAndSessions({ transactions: 50 });

async function open(email: string): Promise<BrowserSession> {
  const session = await openSession(email);
  const { page } = session;
  await signInForOffline(page, email, PASSWORD);
  await openSection(page, 'Cards');
  await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor({ state: 'visible' });
  return session;
}

type StoredCard = { id: string; display_name: string; last_four: string; status: string };

async function cardRow(id: string): Promise<StoredCard> {
  const [row] = await server.db.query<StoredCard>('SELECT id::text, display_name, last_four, status FROM cards WHERE id = $1', [id]);
  if (!row) throw new Error(`no card ${id}`);
  return row;
}

/** The chip of a tile, once it reads exactly `text`. */
async function chipReads(tile: Locator, text: string): Promise<void> {
  await tile.getByTestId('card-status').filter({ hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).waitFor({ state: 'visible', timeout: 60_000 });
}

const tileOf = (page: Page, card: StoredCard): Locator => page.getByRole('article', { name: `${card.display_name} ••${card.last_four}` });

describe('cards, end to end', () => {
  it('an employee locks a card offline; it stays pending through an offline reload, lands once, and the card then declines a purchase', async () => {
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const [chosen] = await server.db.query<{ id: string }>(
      `SELECT id::text FROM cards WHERE business_id = $1 AND user_id = $2 AND status = 'ACTIVE' AND NOT deleted ORDER BY created_at, id LIMIT 1`,
      [server.businessId, employee.id],
    );
    expect(chosen, 'the demo employee has an active card').toBeDefined();
    const card = await cardRow(chosen!.id);
    const scope = await keyScope(server.db, server.businessId, EMPLOYEE);

    const { page, context } = await open(EMPLOYEE);
    const tile = tileOf(page, card);
    await chipReads(tile, 'Active');
    const keysBefore = (await idempotencyKeys(server.db, scope)).length;

    await setNetwork(context, false);
    await tile.getByRole('button', { name: 'Lock card' }).click();
    await chipReads(tile, 'Locked on this device · the card still works until this syncs');
    await tile.getByRole('button', { name: 'Unlock card' }).waitFor({ state: 'visible' });

    // An offline reload: the app starts from the service worker, the tile from the mirror and the outbox.
    await page.reload({ waitUntil: 'commit' });
    await chipReads(tileOf(page, card), 'Locked on this device · the card still works until this syncs');
    expect((await cardRow(card.id)).status).toBe('ACTIVE');
    expect((await idempotencyKeys(server.db, scope)).length).toBe(keysBefore);

    await setNetwork(context, true);
    await chipReads(tileOf(page, card), 'Locked');
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    expect((await cardRow(card.id)).status).toBe('LOCKED');
    const keys = (await idempotencyKeys(server.db, scope)).slice(keysBefore);
    expect(keys.map((k) => [k.state, k.status])).toEqual([['done', 200]]);

    // The card network's authorization for the locked card: declined, nothing written.
    const api = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const txBefore = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE card_id = $1', [card.id]);
    const decision = await api.call(simulateAuthorization, { params: { card_uuid: card.id }, body: { amount: 1250, merchant: 'E2E Blue Bottle Coffee' } });
    expect(decision).toEqual({ approved: false, decline_reason: 'CARD_LOCKED', message: 'The card is locked.' });
    const txAfter = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE card_id = $1', [card.id]);
    expect(txAfter[0]!.n).toBe(txBefore[0]!.n);
  }, 240_000);

  it('an admin selects 50 cards in the table and locks them in one bulk call', async () => {
    // Fifty cards the admin issues first (spread over the business's people), found by their name.
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const holders = await server.db.query<{ id: string }>(
      `SELECT id::text FROM spend_users WHERE business_id = $1 AND NOT deleted AND status = 'ACTIVE' AND ${shownUserSql()} ORDER BY id LIMIT 10`,
      [server.businessId],
    );
    expect(holders.length).toBeGreaterThan(0);
    const fleet: string[] = [];
    for (let i = 0; i < FLEET_SIZE; i++) {
      const issued = await admin.call(issueCard, {
        body: {
          id: randomUUID(), user_id: holders[i % holders.length]!.id, display_name: `${FLEET} ${String(i + 1).padStart(2, '0')}`,
          limit: { amount: 100_000, currency: 'USD', interval: 'MONTHLY' },
        },
      });
      expect(issued.status).toBe('ACTIVE');
      fleet.push(issued.id);
    }
    const othersLockedBefore = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cards WHERE business_id = $1 AND status = 'LOCKED' AND NOT (id = ANY($2::uuid[]))`,
      [server.businessId, fleet],
    );
    const scope = await keyScope(server.db, server.businessId, ADMIN);

    const { page } = await open(ADMIN);
    await page.getByRole('tab', { name: 'All cards' }).click();
    const grid = page.getByRole('grid', { name: 'All cards' });
    await grid.waitFor({ state: 'visible' });
    await page.getByRole('searchbox', { name: 'Search cards' }).fill(FLEET);
    await page.getByTestId('card-count').filter({ hasText: `${FLEET_SIZE} cards match` }).waitFor({ state: 'visible' });
    const keysBefore = (await idempotencyKeys(server.db, scope)).length;

    await grid.getByRole('checkbox', { name: 'Select all' }).click();
    const bar = page.getByRole('region', { name: 'Selection' });
    await bar.getByTestId('selection-count').filter({ hasText: `${FLEET_SIZE} selected` }).waitFor({ state: 'visible' });
    await bar.getByRole('button', { name: `Lock ${FLEET_SIZE}`, exact: true }).click();

    // The command is queued once the page has checked which selected cards may move; then it lands.
    const statuses = async () => server.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM cards WHERE id = ANY($1::uuid[]) GROUP BY status',
      [fleet],
    );
    await expect.poll(statuses, { timeout: 60_000 }).toEqual([{ status: 'LOCKED', n: FLEET_SIZE }]);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const othersLockedAfter = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cards WHERE business_id = $1 AND status = 'LOCKED' AND NOT (id = ANY($2::uuid[]))`,
      [server.businessId, fleet],
    );
    expect(othersLockedAfter[0]!.n).toBe(othersLockedBefore[0]!.n);
    // One call for the fifty.
    expect((await idempotencyKeys(server.db, scope)).slice(keysBefore).map((k) => k.status)).toEqual([200]);
    // The table shows them locked (the status column of a fleet row).
    await grid.getByRole('row').filter({ hasText: `${FLEET} 01` }).filter({ hasText: 'Locked' }).first().waitFor({ state: 'visible' });
  }, 240_000);
});
