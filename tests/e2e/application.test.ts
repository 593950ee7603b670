/**
 * Issue 31 (G): the financing application, on real parts only — the built PWA served by the real
 * server (PGlite, its development mailbox on) in headless Chromium. A new applicant starts on
 * /application/start, reads the mailed code, lands on the step list; the Company step refuses a bad
 * NAICS code in words on its field, then is saved and sent. Offline, the Financial details step is
 * saved on this device, survives a reload, and is sent when the connection returns. axe finds
 * nothing serious on start, the step list and a step form (desktop and 390 px); no sideways scroll at 360.
 *
 * Then a second applicant walks every step with valid data (two identity checks: the control person
 * and the owner of 60 %), sees what submit would refuse (APPLICATION_7002's list) while documents are
 * missing, uploads the business's and each person's documents (one page deleted after a confirm),
 * submits, is approved and goes into the new business as its owner. axe on the step list, a step,
 * the documents step and the decision page.
 *
 * Then the first applicant invites a co-applicant from the step list (a second invite is withdrawn
 * after a confirm); the mailed link opens the start page as "Join an application", and the mailed
 * code signs the invitee into the same application (its label, "You're joining …"). axe on the
 * step list's invite section and the invite's start page (desktop and 390 px).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForMail } from '../support/dev-outbox.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, setNetwork, waitForServiceWorkerControl } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMAIL = 'founder@newco-e2e.test';

useServerAndBrowser({ transactions: 5, devOutbox: true }, 120_000, { viewport: { width: 1280, height: 900 } });

const PDF = { mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n%application page\n') };

async function mailTo(email: string, subject: string): Promise<string> {
  return waitForMail(server.url, email, (messages) => messages.find((x) => x.subject === subject)?.body, `no mail "${subject}"`);
}

async function mailedCode(email: string): Promise<string> {
  const m = /is (\d{6})\./.exec(await mailTo(email, 'Your Ledgerline application code'));
  if (!m) throw new Error(`no code mailed to ${email}`);
  return m[1]!;
}

/** The applicant's own application (the demo seed has another, Sunrise Coffee LLC). */
const applicationId = async (email = EMAIL) => (await server.db.query<{ id: string }>(
  `SELECT u.financing_application_id AS id FROM financing_application_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = $1`, [email]))[0]?.id;

/** start → mailed code → the step list. */
async function signUp(page: Page, email: string, first: string, last: string) {
  await page.goto('/application/start');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByText('We emailed a 6-digit code').waitFor();
  await page.getByLabel('6-digit code').fill(await mailedCode(email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/application$/);
}

/** Opens a step from the step list. */
async function openStep(page: Page, name: string | RegExp) {
  if (!/\/application$/.test(new URL(page.url()).pathname)) await page.getByRole('link', { name: '← All steps' }).click();
  await page.waitForURL(/\/application$/);
  await page.getByRole('link', { name }).click();
}

/** Fills a step's fields by name (a select by its option's value; the labels are axe's and the other test's) and saves it. */
async function saveStep(page: Page, fields: Record<string, string>, button = 'Save and continue') {
  for (const [name, value] of Object.entries(fields)) {
    const field = page.locator(`form [name="${name}"]`);
    if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(value);
    else await field.fill(value);
  }
  const url = page.url();
  await page.getByRole('button', { name: button }).click();
  if (button === 'Save and continue') await page.waitForURL((u) => u.toString() !== url);
}

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('financing application', () => {
  it('starts with a mailed code, keeps drafts offline across a reload and sends them online', async () => {
    printBrowserLogsOnFailure({ applicant: browser });
    const page = browser.page;
    await page.goto('/application/start?ref=PARTNER1');
    await page.getByRole('heading', { name: 'Apply for Ledgerline' }).waitFor();
    expect(await page.getByLabel('Referral code (optional)').inputValue()).toBe('PARTNER1');
    expect(await axeFindings(page)).toEqual([]);
    await page.getByLabel('Work email').fill(EMAIL);
    await page.getByLabel('First name').fill('Nia');
    await page.getByLabel('Last name').fill('Founder');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('That code is not right').waitFor();
    await page.getByLabel('6-digit code').fill(await mailedCode(EMAIL));
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(/\/application$/);
    await page.getByRole('link', { name: /Business details/ }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await noSideways(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('link', { name: /Company/ }).click();
    await page.getByLabel('Industry (NAICS code)').fill('5');
    await page.getByText('Industry (NAICS code) must be a NAICS code of 2 to 6 digits.').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByLabel('Industry (NAICS code)').fill('541511');
    await page.getByLabel('What the business does').fill('Bookkeeping software');
    await page.getByLabel('Employees').fill('4');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/\/application\/leadership$/);
    const company = async () => (await server.db.query<{ company: unknown }>("SELECT answers->'company' AS company FROM financing_applications WHERE id = $1", [await applicationId()]))[0]?.company ?? null;
    expect(await company()).toMatchObject({ industry_code: '541511', employee_count: 4 });

    // An offline navigation is answered by the service worker: wait until it controls the page
    // (its install precaches every lazy page's chunk), as a user's second visit would find it.
    await waitForServiceWorkerControl(page);
    await setNetwork(browser.context, false);
    await page.goto('/application/financial-details').catch(() => undefined);
    await page.getByLabel('Annual revenue').fill('1200000');
    await page.getByLabel('Cash on hand').fill('250000');
    await page.getByLabel('Expected monthly card spend').fill('40000');
    await page.getByText('Saved on this device.').waitFor();
    await page.reload();
    await page.getByLabel('Annual revenue').waitFor();
    expect(await page.getByLabel('Cash on hand').inputValue()).toBe('250000');
    const financial = async () => (await server.db.query<{ f: unknown }>("SELECT answers->'financial_details' AS f FROM financing_applications WHERE id = $1", [await applicationId()]))[0]?.f ?? null;
    expect(await financial()).toBeNull();

    await setNetwork(browser.context, true);
    for (let i = 0; i < 40 && !(await financial()); i++) await new Promise((r) => setTimeout(r, 250));
    expect(await financial()).toMatchObject({ annual_revenue: { amount: 120000000, currency: 'USD' } });
  });

  it('walks every step, uploads the documents, is approved and goes into the new business as its owner', async () => {
    const email = 'omar@okafor-e2e.test';
    const legal = 'Okafor Analytics LLC';
    const applicant = await launchBrowser({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    printBrowserLogsOnFailure({ applicant });
    try {
      const page = applicant.page;
      await signUp(page, email, 'Omar', 'Okafor');
      const address = { 'address.line1': '500 Howard St', 'address.city': 'San Francisco', 'address.state': 'CA', 'address.postal_code': '94105', 'address.country': 'US' };

      await page.getByRole('link', { name: /Business details/ }).click();
      await saveStep(page, {
        legal_name: legal, entity_type: 'LLC', ein: '12-3456789', incorporation_state: 'DE', incorporation_date: '2021-03-01', phone: '+1 415 555 0142', ...address,
      });
      await page.waitForURL(/\/application\/financial-details$/);
      await saveStep(page, { annual_revenue: '900000', cash_on_hand: '150000', monthly_spend_estimate: '30000' });
      await saveStep(page, { industry_code: '541511', description: 'Data analytics for retailers', employee_count: '7' });
      await page.waitForURL(/\/application\/leadership$/);
      await page.locator('[name="control_person.is_applicant"]').check();
      await saveStep(page, { 'control_person.first_name': 'Omar', 'control_person.last_name': 'Okafor', 'control_person.title': 'CEO', 'control_person.email': email });
      await page.waitForURL(/\/application\/ownership$/);
      await page.getByRole('button', { name: 'Add owner' }).click();
      await saveStep(page, {
        'owners.0.kind': 'INDIVIDUAL', 'owners.0.name': 'Lena Park', 'owners.0.email': 'lena@okafor-e2e.test', 'owners.0.percent_bp': '60',
        'owners.1.kind': 'ENTITY', 'owners.1.name': 'Park Holdings LLC', 'owners.1.percent_bp': '20',
      });
      // A saved owner is removed by the server once confirmed.
      const owners = async () => (await server.db.query<{ name: string }>(
        'SELECT name FROM application_owners WHERE financing_application_id = $1 ORDER BY name', [await applicationId(email)])).map((o) => o.name);
      expect(await owners()).toEqual(['Lena Park', 'Park Holdings LLC']);
      await openStep(page, /Ownership/);
      // The saved owners come back in the server's order: find the company's row.
      const company = (await page.locator('form [name="owners.0.name"]').inputValue()) === 'Park Holdings LLC' ? 1 : 2;
      await page.getByRole('button', { name: `Remove owner ${company}` }).click();
      const remove = page.getByRole('dialog', { name: 'Remove Park Holdings LLC?' });
      await remove.getByText('This removes Park Holdings LLC from the owners of the business.').waitFor();
      await remove.getByRole('button', { name: 'Remove owner' }).click();
      await remove.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Remove owner 2' }).waitFor({ state: 'detached' });
      expect(await page.locator('form [name="owners.0.name"]').inputValue()).toBe('Lena Park');
      expect(await owners()).toEqual(['Lena Park']);

      const kyc = { dob: '1984-06-02', citizenship: 'US', ...address };
      await openStep(page, 'Identity check: Omar Okafor');
      await saveStep(page, { first_name: 'Omar', last_name: 'Okafor', ssn: '123-45-6789', ...kyc });
      await openStep(page, 'Identity check: Lena Park');
      expect(await axeFindings(page)).toEqual([]);
      await saveStep(page, { first_name: 'Lena', last_name: 'Park', ssn: '234-56-7890', ...kyc });
      await openStep(page, /Products/);
      await page.getByLabel('Corporate cards').check();
      await page.getByLabel('Bill pay').check();
      await saveStep(page, {});
      await page.waitForURL(/\/application\/bank-accounts$/);
      await saveStep(page, { 'accounts.0.holder_name': legal, 'accounts.0.routing_number': '021000021', 'accounts.0.account_number': '000123456789', 'accounts.0.type': 'CHECKING' });
      await page.waitForURL(/\/application\/review$/);
      await page.getByLabel(/I certify that the owners/).check();
      await page.getByLabel(/I accept the Ledgerline terms/).check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.', { exact: true }).waitFor();

      // What submit refuses now (APPLICATION_7002's list), in words, each with a link to its step.
      const note = page.getByRole('note');
      await note.getByText('Before you submit, these steps need your answers:').waitFor();
      await note.getByRole('link', { name: 'Documents' }).waitFor();
      await note.getByText('Identity check: Lena Park: Upload an identity document.').waitFor();
      expect(await page.getByRole('button', { name: 'Submit application' }).isDisabled()).toBe(true);

      await openStep(page, /Documents/);
      const business = page.getByRole('region', { name: 'Business documents' });
      await business.getByRole('button', { name: 'Add document' }).click();
      const articles = business.getByLabel('Upload pages of Articles of incorporation');
      await articles.setInputFiles({ name: 'articles-1.pdf', ...PDF });
      await business.getByText('Page 1').waitFor();
      await expect.poll(() => articles.isEnabled()).toBe(true);
      await articles.setInputFiles({ name: 'articles-2.pdf', ...PDF });
      await business.getByRole('button', { name: 'Delete page 2 of Articles of incorporation' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete page' }).click();
      await business.getByRole('button', { name: 'Delete page 2 of Articles of incorporation' }).waitFor({ state: 'detached' });
      for (const person of ['Omar Okafor', 'Lena Park']) {
        const group = page.getByRole('region', { name: `Identity document: ${person}` });
        await group.getByRole('button', { name: 'Add document' }).click();
        await group.getByLabel('Upload pages of Driver’s license').setInputFiles({ name: 'license.pdf', ...PDF });
        await group.getByText('Page 1').waitFor();
      }
      expect(await axeFindings(page)).toEqual([]);

      await openStep(page, /Review & certify/);
      await page.getByRole('button', { name: 'Submit application' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL(/\/application\/submitted$/);
      await page.getByText(`Approved. ${legal} is ready on Ledgerline and you are its owner.`).waitFor();
      expect(await axeFindings(page)).toEqual([]);

      const [row] = await server.db.query<{ status: string; business_id: string }>(
        'SELECT status, business_id::text FROM financing_applications WHERE id = $1', [await applicationId(email)]);
      expect(row?.status).toBe('APPROVED');
      expect(await server.db.query<{ role: string; email: string }>(
        `SELECT s.role, i.email FROM spend_users s JOIN identities i ON i.id = s.identity_id WHERE s.business_id = $1`, [row!.business_id]))
        .toEqual([{ role: 'BUSINESS_OWNER', email }]);
      expect(await server.db.query('SELECT count(*)::int AS n FROM application_document_pages p JOIN application_documents d ON d.id = p.document_id JOIN financing_applications a ON a.id = d.financing_application_id WHERE a.business_id = $1', [row!.business_id]))
        .toEqual([{ n: 3 }]);

      await page.getByRole('button', { name: `Go to ${legal}` }).click();
      await page.waitForURL((u) => !u.pathname.startsWith('/application'));
      // The main app, as the new business's owner (the account menu names the role and the business).
      await page.getByRole('button', { name: 'Account: Omar Okafor' }).click();
      await page.getByText(`Owner · ${legal}`).waitFor();
    } finally {
      await applicant.close();
    }
  }, 90_000);

  it('invites a co-applicant whose mailed link and code sign them into the same application', async () => {
    const email = 'mei@inviter-e2e.test';
    const invitee = 'ravi@helper-e2e.test';
    const applicant = await launchBrowser({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    const helper = await launchBrowser({ baseURL: server.url, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    printBrowserLogsOnFailure({ applicant, helper });
    try {
      const page = applicant.page;
      await signUp(page, email, 'Mei', 'Inviter');
      // No business name yet: the application's label is its start date (financingApplicationLabel).
      const heading = page.getByRole('heading', { level: 1, name: /^New application \(/ });
      await heading.waitFor();
      const label = (await heading.textContent())!;
      const invites = page.getByRole('region', { name: 'Invite someone to help' });
      await invites.getByText('No pending invites.').waitFor();
      for (const to of ['gone@helper-e2e.test', invitee]) {
        await invites.getByLabel('Their email').fill(to);
        await invites.getByRole('button', { name: 'Send invite' }).click();
        await invites.getByText(`Invite sent to ${to}.`).waitFor();
      }
      await invites.getByText(invitee, { exact: true }).waitFor();
      expect(await invites.getByText(/Link expires/).count()).toBe(2);
      expect(await axeFindings(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await axeFindings(page)).toEqual([]);
      expect(await noSideways(page)).toBe(true);
      // Withdrawn after a confirm: its link stops working.
      await invites.getByRole('button', { name: 'Withdraw the invite to gone@helper-e2e.test' }).click();
      const confirm = page.getByRole('dialog', { name: 'Withdraw this invite?' });
      await confirm.getByRole('button', { name: 'Withdraw invite' }).click();
      await confirm.waitFor({ state: 'detached' });
      await invites.getByText('gone@helper-e2e.test', { exact: true }).waitFor({ state: 'detached' });

      // The mailed link opens the start page as an invite, on a phone.
      const link = /(\S+\/application\/start\?\S+)/.exec(await mailTo(invitee, 'You were asked to help with a Ledgerline application'))?.[1];
      expect(link).toBeTruthy();
      const hp = helper.page;
      const opened = new URL(link!);
      await hp.goto(`${opened.pathname}${opened.search}`);
      await hp.getByRole('heading', { name: 'Join an application' }).waitFor();
      expect(await hp.getByLabel('Referral code (optional)').count()).toBe(0);
      expect(await axeFindings(hp)).toEqual([]);
      await hp.setViewportSize({ width: 1280, height: 900 });
      expect(await axeFindings(hp)).toEqual([]);
      await hp.setViewportSize({ width: 390, height: 844 });
      await hp.getByLabel('Work email').fill(invitee);
      await hp.getByLabel('First name').fill('Ravi');
      await hp.getByLabel('Last name').fill('Helper');
      await hp.getByRole('button', { name: 'Email me a code' }).click();
      await hp.getByLabel('6-digit code').fill(await mailedCode(invitee));
      await hp.getByRole('button', { name: 'Continue' }).click();
      await hp.waitForURL(/\/application\?joined=1$/);
      await hp.getByText(`You’re joining ${label} as a co-applicant.`).waitFor();
      expect(await hp.getByRole('heading', { level: 1 }).textContent()).toBe(label);
      expect(await server.db.query<{ role: string }>(
        `SELECT u.role FROM financing_application_users u JOIN identities i ON i.id = u.identity_id WHERE lower(i.email) = $1 AND u.financing_application_id = $2`,
        [invitee, await applicationId(email)])).toEqual([{ role: 'CO_APPLICANT' }]);
    } finally {
      await applicant.close();
      await helper.close();
    }
  }, 60_000);
});
