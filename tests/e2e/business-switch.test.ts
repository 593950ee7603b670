/**
 * Business switching end to end (§3, §6): one person with spend users in two businesses, on the
 * built PWA served by the real server in headless Chromium. Signed into the demo business, the
 * user menu lists both businesses ("Switch business", the current one aria-current); choosing
 * the other opens that business's own mirror (its transactions only); a `business_id` link in a
 * fresh load selects the demo business again.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeBusiness } from '../../server/test-fixtures.ts';
import { signIn } from '../support/browser.ts';
import { waitForTotal } from '../support/transactions-page.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const DEMO_TRANSACTIONS = 120;
const OTHER_TRANSACTIONS = 17;
const OTHER_NAME = 'Second Ventures';

useServerAndBrowser({ transactions: DEMO_TRANSACTIONS }, 120_000, {}, async (server) => {
  // The demo admin is also an admin of a second business (as an accepted invite leaves it).
  const other = await makeBusiness(server.db, { transactions: OTHER_TRANSACTIONS, name: OTHER_NAME });
  await server.db.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
     SELECT $1, $2, id, 'BUSINESS_ADMIN', 'Demo', 'Admin', email, (SELECT change_seq + 1 FROM businesses WHERE id = $2)
       FROM identities WHERE email = $3`,
    [randomUUID(), other.businessId, USER],
  );
});

describe('business switcher, end to end', () => {
  it('switches business from the user menu and back through a business_id link', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await page.goto(`/sign-in?business_id=${server.businessId}`);
    await signIn(page, USER, PASSWORD);
    await waitForTotal(page, DEMO_TRANSACTIONS);

    await page.getByRole('button', { name: /^Account: / }).click();
    const switcher = page.getByRole('group', { name: 'Switch business' });
    await expect(switcher.getByRole('menuitem').count()).resolves.toBe(2);
    const [demoName] = await server.db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [server.businessId]);
    await expect(switcher.getByRole('menuitem', { name: demoName!.name }).getAttribute('aria-current')).resolves.toBe('true');

    await switcher.getByRole('menuitem', { name: OTHER_NAME }).click();
    await waitForTotal(page, OTHER_TRANSACTIONS);

    // A link naming the demo business selects it in a fresh load of this tab.
    await page.goto(`/transactions?business_id=${server.businessId}`);
    await waitForTotal(page, DEMO_TRANSACTIONS);
    expect(new URL(page.url()).searchParams.get('business_id')).toBeNull();
  });
});
