import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { BankStatement, LinkedBankAccount } from '../../../schema/api/calls-banking.ts';
import type { FlexRecord } from '../../../schema/api/calls-float.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { BankLinkDialog, DeleteBankDialog, SendDepositsDialog, VerifyAmountsDialog } from './bank-dialogs.tsx';
import { BankAccountCard, BankAccountsView } from './bank-accounts-page.tsx';
import { EntityCashRow } from './entity-cash-accounts.tsx';
import { FlexRecordList, FlexView } from './flex-page.tsx';
import { draftOf } from './statement-draft.ts';
import { parseStatementText } from './statement-lines.ts';
import { StatementLinesEditor, StatementMatches } from './statement-review.tsx';
import { ReadingNote } from './statements-page.tsx';

/** The banking pages' pieces on the server renderer: what each state shows, names for assistive technology, asks before money moves. */
const ID = '00000000-0000-4000-8000-0000000000b1';
const ID2 = '00000000-0000-4000-8000-0000000000b2';
const client = {} as DataClient;
const noop = () => undefined;

const account = (patch: Partial<LinkedBankAccount> = {}): LinkedBankAccount => ({
  id: ID, uuid: ID, name: 'Operating', bank_name: 'First Bank', account_type: 'CHECKING', routing_number: '121000358',
  account_number_masked: '••••6789', currency: 'USD', entity_id: null, status: 'UNVERIFIED', verified_at: null, attempts_left: null,
  created_at: '2026-10-01T00:00:00.000Z', ...patch,
});

const render = (node: ReactNode) => renderToStaticMarkup(<DataProvider client={client} store={createAppStore(true)}>{node}</DataProvider>);
// The Statements link is the page's (a router link): the card is rendered without it here.
const card = (a: LinkedBankAccount, online = true) => render(<BankAccountCard account={a} online={online} onAction={noop} />);

describe('BankAccountsView', () => {
  it('says to connect when offline and nothing was kept', () => {
    const html = render(<BankAccountsView list={{ state: 'offline' }} online={false} onLink={noop} onAction={noop} />);
    expect(html).toContain('Connect to see bank accounts');
  });

  it('offers to link the first account', () => {
    const html = render(<BankAccountsView list={{ state: 'ready', accounts: [], cachedAt: null }} online onLink={noop} onAction={noop} />);
    expect(html).toContain('No bank accounts linked');
    expect(html).toContain('Link bank account');
  });
});

describe('BankAccountCard', () => {
  it('shows the status pill, the masked number and the next verification step', () => {
    const html = card(account());
    expect(html).toContain('Unverified');
    expect(html).toContain('••••6789');
    expect(html).toContain('Send two small deposits<span class="sr-only"> Operating</span>');
    expect(html).not.toContain('Enter the two amounts');
  });

  it('a pending account asks for the amounts; a verified one offers neither step', () => {
    expect(card(account({ status: 'PENDING_VERIFICATION', attempts_left: 2 }))).toContain('Enter the two amounts');
    expect(card(account({ status: 'PENDING_VERIFICATION', attempts_left: 2 }))).toContain('Verifying');
    const verified = card(account({ status: 'VERIFIED' }));
    expect(verified).toContain('Verified');
    expect(verified).not.toContain('Send two small deposits');
  });

  it('offline every action is off', () => {
    expect(card(account(), false)).not.toMatch(/<button(?![^>]*disabled)[^>]*>/);
  });

  it('a list kept from earlier is marked with when it was read, its actions off', () => {
    const html = render(<BankAccountsView list={{ state: 'ready', accounts: [account()], cachedAt: '2026-11-29T09:00:00.000Z' }} online={false} onLink={noop} onAction={noop} />);
    expect(html).toContain('Offline: this is the list as read');
    expect(html).toContain('aria-label="Bank accounts"');
  });
});

describe('bank dialogs', () => {
  it('link: every field named, step-up said up front, routing number checked as typed', () => {
    const html = render(<BankLinkDialog client={client} editing={null} entities={[{ id: ID2, name: 'Acme UK Ltd' }]} currency="USD" online onClose={noop} onSaved={noop} />);
    for (const label of ['Name', 'Bank name', 'Account type', 'Routing number', 'Account number', 'Entity']) expect(html).toContain(`>${label}<`);
    expect(html).toContain('confirm it’s you');
    expect(html).toContain('Acme UK Ltd');
    expect(html).toContain('role="dialog"');
  });

  it('link offline: says so and keeps the submit off', () => {
    const html = render(<BankLinkDialog client={client} editing={null} entities={[]} currency="USD" online={false} onClose={noop} onSaved={noop} />);
    expect(html).toContain('You’re offline');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*disabled/);
  });

  it('edit: numbers left blank are kept, shown masked', () => {
    const html = render(<BankLinkDialog client={client} editing={account({ status: 'VERIFIED' })} entities={[]} currency="USD" online onClose={noop} onSaved={noop} />);
    expect(html).toContain('Edit Operating');
    expect(html).toContain('Now ••••6789.');
    expect(html).toContain('Leave blank to keep the numbers');
  });

  it('asks before sending the two deposits, naming the account', () => {
    const html = render(<SendDepositsDialog client={client} account={account()} onClose={noop} onDone={noop} />);
    expect(html).toContain('Send two small deposits to Operating?');
    expect(html).toContain('First Bank ••••6789');
    expect(html).toContain('under $1.00');
  });

  it('the amounts dialog shows the tries left and what a lockout means', () => {
    const html = render(<VerifyAmountsDialog client={client} account={account({ status: 'PENDING_VERIFICATION', attempts_left: 1 })} onClose={noop} onDone={noop} />);
    expect(html).toContain('First deposit (cents)');
    expect(html).toContain('Second deposit (cents)');
    expect(html).toContain('1 try left');
    expect(html).toContain('lock verification');
  });

  it('delete is asked first', () => {
    const html = render(<DeleteBankDialog client={client} account={account()} onClose={noop} onDeleted={noop} />);
    expect(html).toContain('Delete Operating?');
    expect(html).toContain('Delete bank account');
  });
});

describe('entity cash accounts', () => {
  it('one row per entity with bank, wallet and GL choices', () => {
    const html = render(
      <EntityCashRow client={client} entity={{ id: ID2, name: 'Acme UK Ltd' }} saved={null} onSaved={noop}
        choices={{ entities: [], banks: [account()], wallets: [{ id: ID, name: 'Operating wallet', currency: 'USD' }], glAccounts: [{ id: ID, code: '1000', name: 'Cash' }] }} />,
    );
    expect(html).toContain('aria-label="Acme UK Ltd"');
    expect(html).toContain('Operating ••••6789');
    expect(html).toContain('Operating wallet (USD)');
    expect(html).toContain('1000 · Cash');
    expect(html).toContain('Save<span class="sr-only"> Acme UK Ltd’s cash account</span>');
  });
});

describe('statement review', () => {
  const text = `Statement Period: 10/01/2026 - 10/31/2026
10/01 Beginning Balance 1,000.00
10/02 Deposit 250.00 1,250.00
10/03 ACME SUPPLY 40.00
`;
  it('lists the read lines for editing, each input named by its line, a guessed sign marked', () => {
    const draft = draftOf(parseStatementText(text, { today: '2026-11-29' }));
    const html = render(<StatementLinesEditor draft={draft} errors={{}} currency="USD" today="2026-11-29" onChange={noop} />);
    expect(html).toContain('Date<span class="sr-only"> of line 1</span>');
    expect(html).toContain('Amount<span class="sr-only"> of line 2</span>');
    expect(html).toContain('value="-40.00"');
    expect(html).toContain('check the sign');
    expect(html).toContain('in $250.00');
    expect(html).toContain('Add line');
  });

  it('shows what each line matched: the transfer, or unmatched', () => {
    const statement: BankStatement = {
      id: ID, bank_account_id: ID, file_name: 'oct.png', content_type: 'image/png', size: 10, status: 'READ', period_start: '2026-10-01', period_end: '2026-10-31',
      lines: [
        { date: '2026-10-02', description: 'Deposit', amount: 25_000, matched_entry_id: ID, matched_transfer_id: ID2 },
        { date: '2026-10-03', description: 'ACME SUPPLY', amount: -4_000, matched_entry_id: null, matched_transfer_id: null },
      ],
      matched: 1, unmatched: 1, uploaded_by: ID, created_at: '2026-11-01T00:00:00.000Z',
    };
    const transfer = { id: ID2, from_name: 'Operating wallet', to_name: 'First Bank ••6789', amount: 25_000, currency: 'USD', created_at: '2026-10-01T12:00:00.000Z' };
    const html = render(<StatementMatches statement={statement} currency="USD" transfers={[transfer as never]} />);
    expect(html).toContain('1 matched');
    expect(html).toContain('Matched: transfer Operating wallet → First Bank ••6789');
    expect(html).toContain('Unmatched');
  });

  it.each<[string, Parameters<typeof ReadingNote>[0]['reading'], string]>([
    ['lines read from a PDF', { kind: 'read', lines: 12, pdf: { scanned: 0, limits: null } }, 'Read 12 lines from the PDF on this device. Check each one before uploading.'],
    ['lines read from a scanned PDF', { kind: 'read', lines: 1, pdf: { scanned: 2, limits: null } }, 'Read 1 line from the PDF’s scanned pages on this device.'],
    ['what a long PDF left unread', { kind: 'read', lines: 3, pdf: { scanned: 0, limits: 'Only the first 20 of its 31 pages were read.' } }, 'Check each one before uploading. Only the first 20 of its 31 pages were read.'],
    ['a PDF without lines', { kind: 'nothing', pdf: { scanned: 0, limits: null } }, 'No transaction lines could be read from this PDF: paste the statement’s text below, or add the lines by hand.'],
    ['a PDF that could not be read, and the way on', { kind: 'pdf-failed', message: 'This PDF could not be read on this device: it is protected by a password.' }, 'it is protected by a password. You can paste the statement’s text below, or add the lines by hand.'],
    ['lines read from an image', { kind: 'read', lines: 2 }, 'Read 2 lines on this device.'],
  ])('says %s', (_, reading, words) => {
    expect(renderToStaticMarkup(<ReadingNote reading={reading} />)).toContain(words);
  });
});

describe('flex', () => {
  const money = (amount: number) => ({ amount, currency: 'USD' });
  const record: FlexRecord = {
    id: ID, bill_id: ID, offer_id: ID, amount: money(100_000), fee: money(1_500), term_days: 60, status: 'ACTIVE', accepted_by: ID, created_at: '2026-11-01T00:00:00.000Z',
    installments: [
      { id: ID, due_date: '2026-12-01', amount: money(50_750), status: 'PAID', paid_at: '2026-12-01T08:00:00.000Z', failure_reason: null, attempts: 1 },
      { id: ID2, due_date: '2026-12-31', amount: money(50_750), status: 'FAILED', paid_at: null, failure_reason: 'Not enough funds', attempts: 1 },
    ],
  };

  it('records show each installment’s state; a failed one can be retried', () => {
    const html = render(<FlexRecordList records={[record]} onRetry={noop} />);
    expect(html).toContain('$1,000.00 over 60 days');
    expect(html).toContain('Paid');
    expect(html).toContain('Failed');
    expect(html).toContain('Not enough funds');
    expect(html).toContain('Retry<span class="sr-only"> installment 2</span>');
  });

  it('a record names its bill when this device holds it, and says nothing of one it does not', () => {
    expect(render(<FlexRecordList records={[record]} billNames={{ [ID]: 'Globex · INV-2041' }} onRetry={noop} />)).toContain('Globex · INV-2041 · Fee $15.00');
    expect(render(<FlexRecordList records={[record]} billNames={{ [ID2]: 'Initech · INV-9' }} onRetry={noop} />)).not.toContain('Initech');
  });

  it('onboarding: the terms, accepted by an admin; others are told who can', () => {
    const settings = { status: 'NOT_ONBOARDED' as const, limit: money(0), used: money(0), available: money(0), ap_clerks_can_flex: false, onboarded_at: null };
    const admin = render(<FlexView client={client} admin online settings={settings} onSettings={noop} />);
    expect(admin).toContain('I accept the flex terms');
    expect(admin).toMatch(/<button[^>]*type="submit"[^>]*disabled[^>]*>Set up flex/);
    const clerk = render(<FlexView client={client} admin={false} online settings={settings} onSettings={noop} />);
    expect(clerk).toContain('An admin can set up flex');
  });

  it('the line and, for admins, whether AP clerks may use flex', () => {
    const settings = { status: 'ACTIVE' as const, limit: money(5_000_000), used: money(100_000), available: money(4_900_000), ap_clerks_can_flex: true, onboarded_at: '2026-10-01T00:00:00.000Z' };
    const html = render(<FlexView client={client} admin online settings={settings} onSettings={noop} />);
    expect(html).toContain('$49,000.00');
    expect(html).toContain('AP clerks may pay bills with flex');
  });
});
