/**
 * Issue 24, end to end: the fraud response on real parts only — the built PWA (dist/) served by
 * the real server (PGlite) in Debian's headless Chromium.
 *
 * The card network (the simulate call) sends an unusual purchase on the demo employee's card: a
 * jeweller abroad, far above what the card usually spends. The rules hold it. The employee sees
 * the "Was this you?" banner, goes offline and answers "No, I don't recognise it": the app asks
 * first, naming what it will do, then shows the card locked at once (the Cards page too, waiting
 * to sync) while the server still has it active. Back online the answer lands: through the API,
 * the card is LOCKED and the transaction NOT_RECOGNIZED with exactly one open dispute; the
 * transaction's drawer then says so and offers "Replace card".
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getCard, issueCard, simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { getTransaction } from '../../schema/api/calls.ts';
import { apiSignIn } from '../support/api.ts';
import { openSection, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const MERCHANT = 'Maison Opale';

const openSession = useServerAndSessions({ transactions: 50 });

describe('fraud response, end to end', () => {
  it('a held charge disowned offline locks the card at once; online the lock and one dispute land, and a replacement is offered', async () => {
    // A card of the employee's with an ordinary history (six meals in GB), then the unusual purchase.
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const card = await admin.call(issueCard, {
      body: { id: randomUUID(), user_id: employee.id, display_name: 'E2E Travel', limit: { amount: 5_000_000, currency: 'USD', interval: 'MONTHLY' } },
    });
    const api = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    for (let i = 0; i < 6; i++) {
      const meal = await api.call(simulateAuthorization, {
        params: { card_uuid: card.id }, body: { amount: 4_000 + i * 100, merchant: `E2E Cafe ${i}`, merchant_category: 'Meals', merchant_country: 'GB' },
      });
      expect(meal.approved && meal.transaction.fraud_status).toBeNull();
    }
    const sim = await api.call(simulateAuthorization, {
      params: { card_uuid: card.id }, body: { amount: 81_240, merchant: MERCHANT, merchant_category: 'Jewellery', merchant_country: 'FR' },
    });
    if (!sim.approved) throw new Error(`declined: ${sim.message}`);
    const held = sim.transaction;
    expect(held.fraud_status).toBe('FLAGGED');

    const session = await openSession(EMPLOYEE);
    const { page, context } = session;
    await signInForOffline(page, EMPLOYEE, PASSWORD);
    await openSection(page, 'Transactions');

    const prompt = page.getByTestId('held-charge').filter({ hasText: MERCHANT });
    await prompt.getByRole('heading', { name: `We held a suspicious charge: $812.40 at ${MERCHANT} — Was this you?` }).waitFor({ state: 'visible', timeout: 60_000 });
    // The list marks it too.
    await page.getByRole('row').filter({ hasText: MERCHANT }).getByText('Held', { exact: true }).waitFor({ state: 'visible' });

    await setNetwork(context, false);
    await prompt.getByRole('button', { name: "No, I don't recognise it" }).click();
    const dialog = page.getByRole('dialog', { name: "Don't recognise this charge?" });
    await dialog.getByText(`We'll lock card •••• ${card.last_four} now, open a dispute for $812.40, and you can order a replacement.`).waitFor({ state: 'visible' });
    await dialog.getByRole('button', { name: 'Lock card and dispute' }).click();

    const outcome = page.getByTestId('disputed-charge');
    await outcome.getByText(`Card •••• ${card.last_four} is locked.`).waitFor({ state: 'visible' });
    await outcome.getByText(/You're offline: the card shows locked on this device now/).waitFor({ state: 'visible' });
    await outcome.getByRole('button', { name: 'Replace card' }).waitFor({ state: 'visible' });
    // The banner re-renders from the mirror's query after the optimistic answer: it goes, it does not stay.
    await prompt.waitFor({ state: 'detached', timeout: 10_000 });
    // Nothing reached the server yet.
    const stored = async () => (await server.db.query<{ status: string; disputes: number; fraud: string }>(
      `SELECT c.status, (SELECT count(*)::int FROM transaction_disputes d WHERE d.transaction_id = $2) AS disputes,
              (SELECT fraud_status FROM transactions WHERE id = $2) AS fraud
         FROM cards c WHERE c.id = $1`, [card.id, held.id]))[0]!;
    expect(await stored()).toEqual({ status: 'ACTIVE', disputes: 0, fraud: 'FLAGGED' });

    // The Cards page shows the card locked at once, waiting to sync.
    await openSection(page, 'Cards');
    const tile = page.getByRole('article', { name: `E2E Travel ••${card.last_four}` });
    await tile.getByTestId('card-status').filter({ hasText: /^\s*Locked · waiting to sync\s*$/ }).waitFor({ state: 'visible', timeout: 30_000 });

    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await tile.getByTestId('card-status').filter({ hasText: /^\s*Locked\s*$/ }).waitFor({ state: 'visible', timeout: 60_000 });
    // Through the API: the card is locked, the charge disowned with one open dispute.
    expect((await api.call(getCard, { params: { card_uuid: card.id } })).status).toBe('LOCKED');
    const answered = await api.call(getTransaction, { params: { transaction_canonical_uuid: held.id } });
    expect(answered.fraud_status).toBe('NOT_RECOGNIZED');
    expect(answered.dispute_id).toEqual(expect.any(String));
    expect(await stored()).toEqual({ status: 'LOCKED', disputes: 1, fraud: 'NOT_RECOGNIZED' });

    // The transaction's drawer says what happened and offers the replacement.
    await page.goto(`/transactions?open=${held.id}`);
    const drawer = page.getByTestId('disputed-charge');
    await drawer.getByText(`We opened a dispute for $812.40 at ${MERCHANT}.`).waitFor({ state: 'visible', timeout: 60_000 });
    await drawer.getByRole('button', { name: 'Replace card' }).waitFor({ state: 'visible' });
  }, 300_000);
});
