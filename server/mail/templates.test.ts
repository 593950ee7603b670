import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { enqueueMail } from './outbox.ts';
import { inviteExpiry } from './invite.ts';
import { MAIL_TEMPLATE_NAMES, mailDate, MailTemplateError, renderMail, requiredValues, type MailTemplateName, type MailTemplateValues } from './templates.ts';

/** One set of values per template: the type makes a new template without a sample fail to compile. */
const event = (title: string) => ({ title, details: 'Team lunch <with the client>', link: 'https://app.test/approvals?open=a1' });
const SAMPLES: { [K in MailTemplateName]: MailTemplateValues[K] } = {
  sign_in_code: { code: '042917' },
  verify_email: { code: '315550' },
  passwordless_link: { link: 'https://app.test/passwordless?token=abc_DEF-1' },
  invite: { business: 'Acme & Co', invited_by: 'Dana Lee', via: 'person', link: 'https://app.test/invites/tok_1', expires: '7 December 2026' },
  approval_waiting: event('Maya Chen’s claim for $42.00 is waiting for your approval'),
  approved: event('Your claim for $42.00 was approved'),
  rejected: event('Your claim for $42.00 was rejected'),
  reminder: { title: 'You have 3 items missing a receipt, memo or coding', details: 'Add them before month end.', link: 'https://app.test/missing-items' },
  mention: event('Maya Chen mentioned you on Delta Air Lines · $120.00'),
  comment: event('Maya Chen commented on Delta Air Lines · $120.00'),
  workflow: event('Claim desk: a claim is submitted'),
  large_transaction: event('Dana Lee spent $9,800.00 at Apple'),
  bank_debit_check: { account: 'Chase ••1234', currency: 'USD' },
  missing_items_reminder: { first_name: 'Maya', count: 3, total: '$1,240.50 and €12.00', link: 'https://app.test/missing-items#token=abc.DEF_1' },
  bill_approval_reminder: {
    vendor: 'Bolt & <Nut> Supply', invoice: 'INV-0042', amount: '$4,210.00', due: '7 December 2026', reminded_by: 'Dana Lee',
    link: 'https://app.test/approvals?type=bills&open=a1',
  },
  held_charge: {
    first_name: 'Sam', charge: '£812.40 at Bijouterie Royale on 20 Nov 2026', card: '•••• 4242 (Travel <EU>)',
    reasons: 'much larger than this card usually spends; a merchant this card has never used', link: 'https://app.test/transactions?open=t1',
  },
  application_code: { code: '550912' },
  firm_application_code: { firm: 'Lee & <Partners>', code: '771203' },
  wrong_codes: { minutes: 15 },
  vendor_network_invite: { payer: 'Acme & Co', vendor: 'Bolt <Supply>', link: 'https://app.test/vendor-portal/invite#token=tok_2' },
  vendor_payment_failed: { payer: 'Acme & Co', vendor: 'Bolt <Supply>', link: 'https://app.test/vendor-portal' },
  notice: { subject: 'Hello', body: 'A body written by its sender.' },
};

const LINKED = [
  'passwordless_link', 'invite', 'approval_waiting', 'approved', 'rejected', 'reminder', 'mention', 'comment', 'workflow', 'large_transaction',
  'missing_items_reminder', 'bill_approval_reminder', 'held_charge', 'vendor_network_invite', 'vendor_payment_failed',
];
const EXPLAINED: readonly string[] = MAIL_TEMPLATE_NAMES.filter((n) => n !== 'notice');

describe('mail templates', () => {
  it.each(MAIL_TEMPLATE_NAMES)('%s renders subject, text and escaped HTML from its values', (name) => {
    const mail = renderMail(name, SAMPLES[name] as never);
    expect(mail.template).toBe(name);
    expect(mail.subject.length).toBeGreaterThan(3);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    for (const field of requiredValues(name)) {
      const v = String((SAMPLES[name] as Record<string, string | number>)[field]);
      if (field !== 'via') expect(`${mail.subject}\n${mail.text}`).toContain(v);
    }
    expect(mail.text).not.toMatch(/undefined|null|NaN|\[object/);
    if (LINKED.includes(name)) expect(mail.html).toMatch(/<a href="https:\/\/app\.test\//);
    if (EXPLAINED.includes(name)) expect(mail.text).toContain('You got this email because');
    expect(mail.html).not.toContain('<with the client>');
    expect(mail.html).toContain('<title>');
  });

  it.each(MAIL_TEMPLATE_NAMES)('%s refuses each missing, empty or lost value, naming it', (name) => {
    for (const field of requiredValues(name)) {
      for (const lost of [undefined, null, '', '  ', 'undefined', 'NaN']) {
        const values = { ...SAMPLES[name], [field]: lost } as never;
        expect(() => renderMail(name, values)).toThrow(MailTemplateError);
        expect(() => renderMail(name, values)).toThrow(`Mail template "${name}" needs a value for "${field}"; nothing was sent.`);
      }
    }
  });

  it('leaves an optional value out rather than print it lost', () => {
    const mail = renderMail('rejected', { title: 'Your claim was rejected', details: null, link: 'https://app.test/x' });
    expect(mail.text).toBe('Your claim was rejected\n\nOpen it in Ledgerline: https://app.test/x\n\n'
      + 'You got this email because you asked for this approval. You can turn these emails off in Ledgerline, under your notification settings.');
  });

  it('keeps codes at the start of a readable sentence and links followed by a space (readers and tests parse them)', () => {
    expect(renderMail('sign_in_code', { code: '042917' }).text).toMatch(/^Your verification code is 042917\. /);
    expect(renderMail('passwordless_link', SAMPLES.passwordless_link).text).toMatch(/Sign in to Ledgerline: https:\/\/app\.test\/passwordless\?token=abc_DEF-1 /);
    expect(renderMail('invite', SAMPLES.invite).text).toMatch(/Accept the invite: https:\/\/app\.test\/invites\/tok_1 \(valid until 7 December 2026\)\./);
  });

  it('names who invited: a person, or the integration that added them', () => {
    const person = renderMail('invite', SAMPLES.invite);
    expect(person.subject).toBe('You are invited to join Acme & Co on Ledgerline');
    expect(person.text).toMatch(/^Dana Lee invited you to join Acme & Co on Ledgerline/);
    expect(person.html).toContain('Acme &amp; Co');
    const integration = renderMail('invite', { ...SAMPLES.invite, invited_by: 'Okta', via: 'integration' });
    expect(integration.subject).toBe(person.subject);
    expect(integration.text).toMatch(/^Acme & Co added you to Ledgerline through its Okta connection\./);
  });

  it('says an invite’s last day and a bill’s due date as a reader does', () => {
    expect(inviteExpiry('2026-12-07T15:22:00.000Z')).toBe('7 December 2026');
    expect(inviteExpiry('not a date')).toBe('');
    expect(mailDate('2027-01-05')).toBe('5 January 2027');
    expect(() => renderMail('bill_approval_reminder', { ...SAMPLES.bill_approval_reminder, due: mailDate('soon') })).toThrow(MailTemplateError);
  });

  it('mails application and firm codes at the start of a sentence readers and tests parse, the firm escaped in HTML', () => {
    const app = renderMail('application_code', SAMPLES.application_code);
    expect(app.subject).toBe('Your Ledgerline application code');
    expect(app.text).toMatch(/^Your code to continue your Ledgerline application is 550912\. It expires in 10 minutes\./);
    const firm = renderMail('firm_application_code', SAMPLES.firm_application_code);
    expect(firm.subject).toBe('Your Ledgerline firm application code');
    expect(firm.text).toMatch(/^Your code to apply for Lee & <Partners> on Ledgerline is 771203\. /);
    expect(firm.html).toContain('apply for Lee &amp; &lt;Partners&gt; on Ledgerline is 771203.');
    const wrong = renderMail('wrong_codes', SAMPLES.wrong_codes);
    expect(wrong.subject).toBe('Wrong verification codes on your Ledgerline account');
    expect(wrong.text).toContain('codes are refused for the next 15 minutes.');
    expect(wrong.text).toContain('change it.');
  });

  it('invites a vendor to the network and tells it of a failed payment, names escaped in HTML', () => {
    const invite = renderMail('vendor_network_invite', SAMPLES.vendor_network_invite);
    expect(invite.subject).toBe('Acme & Co invites you to get paid through Ledgerline');
    expect(invite.text).toMatch(/^Acme & Co pays Bolt <Supply> through Ledgerline\. /);
    expect(invite.text).toContain('Join: https://app.test/vendor-portal/invite#token=tok_2\n\n');
    expect(invite.html).toContain('Acme &amp; Co pays Bolt &lt;Supply&gt; through Ledgerline.');
    const failed = renderMail('vendor_payment_failed', SAMPLES.vendor_payment_failed);
    expect(failed.subject).toBe('Acme & Co could not pay you');
    expect(failed.text).toMatch(/^A payment from Acme & Co to Bolt <Supply> failed\./);
    expect(failed.html).toContain('<a href="https://app.test/vendor-portal"');
  });

  it('reminds of missing items with the count, their total and the link', () => {
    const mail = renderMail('missing_items_reminder', SAMPLES.missing_items_reminder);
    expect(mail.subject).toBe('You have 3 items missing a receipt, memo or coding');
    expect(mail.text).toMatch(/^Hi Maya, 3 items of your card charges and claims \(\$1,240\.50 and €12\.00 in all\) still need /);
    expect(mail.text).toContain('Go through them one at a time: https://app.test/missing-items#token=abc.DEF_1\n\n');
    expect(mail.html).toContain('<a href="https://app.test/missing-items#token=abc.DEF_1"');
    const one = renderMail('missing_items_reminder', { count: 1, total: '$9.99', link: 'https://app.test/missing-items' });
    expect(one.subject).toBe('You have 1 item missing a receipt, memo or coding');
    expect(one.text).toMatch(/^Hi, 1 item of your card charges and claims \(\$9\.99 in all\) still needs /);
    expect(() => renderMail('missing_items_reminder', { ...SAMPLES.missing_items_reminder, count: Number.NaN })).toThrow('"count"');
  });

  it('reminds an approver of a bill with its vendor, amount, due date and link, escaped in HTML', () => {
    const mail = renderMail('bill_approval_reminder', SAMPLES.bill_approval_reminder);
    expect(mail.subject).toBe('A bill is waiting for your approval: invoice INV-0042 from Bolt & <Nut> Supply');
    expect(mail.text).toContain('Dana Lee reminded you that a bill is waiting for your approval:\n\nBolt & <Nut> Supply, invoice INV-0042\n$4,210.00, due 7 December 2026');
    expect(mail.html).toContain('Bolt &amp; &lt;Nut&gt; Supply, invoice INV-0042<br>$4,210.00, due 7 December 2026');
    expect(mail.html).not.toContain('<Nut>');
    expect(mail.html).toContain('<a href="https://app.test/approvals?type=bills&amp;open=a1"');
  });

  it('asks the cardholder about a held charge with the card, the reasons and the link', () => {
    const mail = renderMail('held_charge', SAMPLES.held_charge);
    expect(mail.subject).toBe('Did you make this purchase? £812.40 at Bijouterie Royale on 20 Nov 2026');
    expect(mail.text).toMatch(/^Hi Sam, we held a charge of £812\.40 at Bijouterie Royale on 20 Nov 2026 on your card •••• 4242 \(Travel <EU>\) because it looks unusual: much larger/);
    expect(mail.text).toContain('Tell us whether it was you: https://app.test/transactions?open=t1\n\n');
    expect(mail.html).toContain('(Travel &lt;EU&gt;)');
  });
});

describe.each(await testDatabases())('mail templates at enqueue (%s)', (kind) => {
  let t: TestDb;
  const logged: string[] = [];
  const deps = { devOutbox: true, log: (line: string) => logged.push(line), mail: { smtpUrl: null, from: 'Ledgerline <no-reply@ledgerline.test>' } };
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(async () => {
    await t.close();
  });
  const stored = async (to: string) => ({
    outbox: await t.db.query<{ template: string }>('SELECT template FROM mail_outbox WHERE recipient = $1', [to]),
    dev: await t.db.query<{ subject: string; body: string }>('SELECT subject, body FROM dev_outbox WHERE recipient = $1', [to]),
  });

  it.each(MAIL_TEMPLATE_NAMES)('%s is enqueued with its values, and refused without them (nothing stored, nothing logged)', async (name) => {
    const to = `${name}-${kind}@example.com`;
    await t.db.transaction((tx) => enqueueMail(deps, tx, { to, template: name, values: SAMPLES[name] } as never));
    const ok = await stored(to);
    expect(ok.outbox).toEqual([{ template: name }]);
    expect(ok.dev).toEqual([{ subject: renderMail(name, SAMPLES[name] as never).subject, body: renderMail(name, SAMPLES[name] as never).text }]);
    const refusedTo = `refused-${to}`;
    const before = logged.length;
    const field = requiredValues(name)[0]!;
    const attempt = t.db.transaction((tx) => enqueueMail(deps, tx, { to: refusedTo, template: name, values: { ...SAMPLES[name], [field]: undefined } } as never));
    await expect(attempt).rejects.toThrow(new MailTemplateError(name, field).message);
    expect(await stored(refusedTo)).toEqual({ outbox: [], dev: [] });
    expect(logged.length).toBe(before);
  });

  it('adds the development-only note to the dev outbox copy alone', async () => {
    const to = `debit-${kind}@example.com`;
    await t.db.transaction((tx) => enqueueMail(deps, tx, {
      to, template: 'bank_debit_check', values: SAMPLES.bank_debit_check, devOutboxNote: 'Development mailbox only: the deposits are 0.12 and 0.34 USD.',
    }));
    const { dev } = await stored(to);
    expect(dev[0]!.body).toMatch(/deposits are 0\.12 and 0\.34 USD\.$/);
    expect(logged.find((l) => l.includes(to))).not.toContain('0.12');
  });
});
