import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { LinkedBankAccount } from '../../../workers/api.ts';
import { Button, buttonClass } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { ACCOUNT_TYPE_LABELS } from '../../lib/bank-form.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { BankLinkDialog, DeleteBankDialog, RevealDialog, SendDepositsDialog, VerifyAmountsDialog } from './bank-dialogs.tsx';
import { STATUS_LABELS, STATUS_TONES, statusText } from './bank-link-form.ts';
import { EntityCashAccounts } from './entity-cash-accounts.tsx';
import { useBankAccounts, type BankList } from './use-bank-accounts.ts';
import './banking.css';
import { TreasuryNav } from '../../components/treasury-nav.tsx';

export type BankAction = 'verify' | 'amounts' | 'reveal' | 'edit' | 'delete';

type Open =
  | { kind: 'link' }
  | { kind: Exclude<BankAction, 'reveal'>; account: LinkedBankAccount }
  | { kind: 'numbers'; account: LinkedBankAccount; numbers: { routing_number: string; account_number: string; account_type: string } };

/**
 * Issue 30, /treasury/bank-accounts (admins): the business's linked bank accounts with their
 * verification state and masked numbers (online; offline the last list this device read, marked
 * with when), "Link bank account", verification by two micro-deposits, the numbers shown after
 * step-up, edit, delete; each entity's cash account. The treasury sub-navigation is the lead's.
 */
export function BankAccountsPage() {
  const { client, currency } = usePageData();
  const online = useAppState((s) => s.online);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceAnswer(client, referenceVersion);
  const { list, reload } = useBankAccounts(client, online);
  const [open, setOpen] = useState<Open | null>(null);
  const sensitive = useSensitiveAction();
  const entities = (reference?.entities ?? []).map((e) => ({ id: e.id, name: e.name }));
  const close = () => setOpen(null);
  const done = (message: string) => {
    setOpen(null);
    toastInfo(message);
    reload();
  };

  async function reveal(account: LinkedBankAccount) {
    await sensitive.run(
      async () => {
        const r = await client.revealBankAccount(account.id);
        if (r.ok) setOpen({ kind: 'numbers', account, numbers: r.numbers });
        return r;
      },
      (r) => {
        if (!r.ok) toastError(`The numbers were not shown: ${errorText(r.error)}`);
      },
    );
  }

  return (
    <div className="page bank-page">
      <TreasuryNav current="/treasury/bank-accounts" />
      <div className="page-header">
        <h1>Bank accounts</h1>
        <span className="spacer" />
        <Button variant="primary" disabled={!online} title={online ? undefined : 'This needs a connection.'} onClick={() => setOpen({ kind: 'link' })}>
          Link bank account
        </Button>
      </div>
      <BankAccountsView
        list={list}
        online={online}
        onLink={() => setOpen({ kind: 'link' })}
        onAction={(kind, account) => (kind === 'reveal' ? void reveal(account) : setOpen({ kind, account }))}
        statementsLink={(a) => (
          <Link to="/treasury/statements" search={{ account: a.id }} className={buttonClass({ variant: 'ghost', size: 'sm' })}>
            Statements<span className="sr-only"> of {a.name}</span>
          </Link>
        )}
      />
      <Section title="Entity cash accounts" description="Where each entity’s money is kept and the GL account it is booked to.">
        <EntityCashAccounts
          client={client}
          online={online}
          choices={{
            entities,
            banks: list.state === 'ready' ? list.accounts : [],
            wallets: reference?.wallet_accounts ?? [],
            glAccounts: (reference?.gl_accounts ?? []).filter((g) => g.active),
          }}
        />
      </Section>
      {open?.kind === 'link' && (
        <BankLinkDialog client={client} editing={null} entities={entities} currency={currency} online={online} onClose={close} onSaved={(_a, m) => done(m)} />
      )}
      {open?.kind === 'edit' && (
        <BankLinkDialog client={client} editing={open.account} entities={entities} currency={currency} online={online} onClose={close} onSaved={(_a, m) => done(m)} />
      )}
      {open?.kind === 'verify' && (
        <SendDepositsDialog client={client} account={open.account} onClose={close} onDone={(a) => done(`Two small deposits are on their way to ${a.name}.`)} />
      )}
      {open?.kind === 'amounts' && (
        // Closed after a wrong answer, the card must show the tries left (or the lockout): read again.
        <VerifyAmountsDialog client={client} account={open.account} onClose={() => { close(); reload(); }} onDone={(a) => done(`${a.name} is verified.`)} />
      )}
      {open?.kind === 'delete' && (
        <DeleteBankDialog client={client} account={open.account} onClose={close} onDeleted={() => done(`${open.account.name} was deleted.`)} />
      )}
      {open?.kind === 'numbers' && <RevealDialog account={open.account} numbers={open.numbers} onClose={close} />}
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </div>
  );
}

export interface BankAccountsViewProps {
  list: BankList;
  online: boolean;
  onLink(): void;
  onAction(action: BankAction, account: LinkedBankAccount): void;
  /** The card's link to the account's statements (the page's router link). */
  statementsLink?: (account: LinkedBankAccount) => ReactNode;
}

/** The list as it stands: loading, offline with nothing kept, refused, empty, or the accounts (marked when kept from earlier). */
export function BankAccountsView({ list, online, onLink, onAction, statementsLink }: BankAccountsViewProps) {
  if (list.state === 'loading') return <p className="muted" role="status">Loading bank accounts…</p>;
  if (list.state === 'offline') {
    return <EmptyState title="Connect to see bank accounts">Bank accounts are kept on the server. Nothing was read on this device yet, so there is nothing to show offline.</EmptyState>;
  }
  if (list.state === 'error') return <FormError message={list.message} />;
  if (list.accounts.length === 0) {
    return (
      <EmptyState title="No bank accounts linked" action={<Button variant="primary" disabled={!online} onClick={onLink}>Link bank account</Button>}>
        Link the business’s bank account to move money between it and Ledgerline and to match its statements.
      </EmptyState>
    );
  }
  return (
    <>
      {list.cachedAt && (
        <p className="notice" role="status">
          Offline: this is the list as read {formatLocalDateTime(list.cachedAt)}. It may have changed since; changes need a connection.
        </p>
      )}
      <ul className="bank-list" aria-label="Bank accounts">
        {list.accounts.map((a) => <BankAccountCard key={a.id} account={a} online={online && !list.cachedAt} onAction={onAction} statementsLink={statementsLink?.(a)} />)}
      </ul>
    </>
  );
}

export function BankAccountCard({ account: a, online, onAction, statementsLink }: { account: LinkedBankAccount; online: boolean; onAction: BankAccountsViewProps['onAction']; statementsLink?: ReactNode }) {
  const act = (kind: BankAction, label: string, variant: 'primary' | 'secondary' | 'ghost' | 'danger' = 'secondary') => (
    <Button size="sm" variant={variant} disabled={!online} onClick={() => onAction(kind, a)}>
      {label}<span className="sr-only"> {a.name}</span>
    </Button>
  );
  return (
    <li className="bank-card">
      <div className="bank-card-head">
        <h2 className="bank-card-name">{a.name}</h2>
        <StatusPill tone={STATUS_TONES[a.status]}>{STATUS_LABELS[a.status]}</StatusPill>
      </div>
      <p className="bank-card-meta">
        {a.bank_name || 'Bank'} · {ACCOUNT_TYPE_LABELS[a.account_type]} · <span className="mono">{a.account_number_masked}</span> · routing <span className="mono">{a.routing_number}</span> · {a.currency}
      </p>
      <p className="muted bank-card-status">{statusText(a)}</p>
      <div className="bank-card-actions" role="group" aria-label={`${a.name} actions`}>
        {(a.status === 'UNVERIFIED' || a.status === 'FAILED') && act('verify', 'Send two small deposits', 'primary')}
        {a.status === 'PENDING_VERIFICATION' && act('amounts', 'Enter the two amounts', 'primary')}
        {act('reveal', 'Show numbers', 'ghost')}
        {act('edit', 'Edit', 'ghost')}
        {statementsLink}
        {act('delete', 'Delete', 'danger')}
      </div>
    </li>
  );
}
