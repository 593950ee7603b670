import { useEffect, useRef, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { Button } from '../../components/button.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { Facts, type Fact } from '../../components/facts.tsx';
import { FormError } from '../../components/form-error.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import type { DataClient, RevealedBankAccount, VendorResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { BankAccountDialog } from '../../components/bank-account-dialog.tsx';
import { ACCOUNT_TYPE_LABELS, addressLines, bankDetailText, endSentence, NO_BANK } from './vendor-view.ts';

/** How long revealed numbers stay on screen: long enough to copy, short enough for a shoulder. */
export const REVEAL_MS = 30_000;

export interface VendorDrawerProps {
  /** null: not (or no longer) among the business's vendors. */
  vendor: Vendor | null;
  client: DataClient;
  online: boolean;
  onAnswer(vendor: Vendor): void;
  onEdit(vendor: Vendor): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

/**
 * One vendor: details, contacts and the bank account masked. Reveal and Set bank account go
 * through the step-up (`sensitive` scope): the call answers `step_up`, the person confirms it's
 * them, and the same call runs again. Revealed numbers live in this component's state only and
 * are hidden again after REVEAL_MS.
 */
export function VendorDrawer({ vendor, client, online, onAnswer, onEdit, onClose, returnFocus }: VendorDrawerProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const sensitive = useSensitiveAction();
  // Both belong to one vendor and one bank account: opening another, or a new account, drops them.
  const [reveal_, setRevealed] = useState<{ key: string; bank: RevealedBankAccount } | null>(null);
  const [error_, setErrorFor] = useState<{ id: string; message: string } | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'archive' | null>(null);
  const [settingBank, setSettingBank] = useState(false);
  const id = vendor?.id;
  const bankKey = `${id}|${vendor?.bank_account?.last_four ?? ''}|${vendor?.bank_account?.routing_last_four ?? ''}`;
  const revealed = reveal_ && reveal_.key === bankKey ? reveal_.bank : null;
  const error = error_ && error_.id === id ? error_.message : null;
  const setError = (message: string | null) => setErrorFor(message && id ? { id, message } : null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);
  useEffect(() => {
    if (!reveal_) return;
    const t = setTimeout(() => setRevealed(null), REVEAL_MS);
    return () => clearTimeout(t);
  }, [reveal_]);

  async function reveal(v: Vendor) {
    setError(null);
    setBusy('reveal');
    await sensitive.run(
      async () => {
        const r = await client.revealVendorBankAccount(v.id);
        if (r.ok) setRevealed({ key: bankKey, bank: r.bank });
        return r.ok ? { ok: true } : r;
      },
      (r) => {
        if (!r.ok) setError(errorText(r.error));
      },
    );
    setBusy(null);
  }

  async function setStatus(v: Vendor, status: Vendor['status']) {
    setError(null);
    setBusy('archive');
    const r: VendorResult = await client.updateVendor(v.id, { status });
    setBusy(null);
    if (!r.ok) return setError(errorText(r.error));
    onAnswer(r.vendor);
    toastInfo(status === 'ARCHIVED' ? `${v.name} archived.` : `${v.name} is active again.`);
  }

  const title = vendor ? vendor.name : 'Vendor not found';
  return (
    <Drawer title={title} titleRef={heading} closeLabel="Close vendor details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {vendor === null ? (
        <div className="drawer-body">
          <p className="muted">This vendor is not on this device any more. It may have been merged into another or removed.</p>
        </div>
      ) : (
        <div className="drawer-body vendor-detail">
          <div className="vendor-detail-actions">
            {vendor.status === 'ARCHIVED' && <StatusPill tone="neutral">Archived</StatusPill>}
            <span className="spacer" />
            <Button size="sm" onClick={() => onEdit(vendor)}>
              Edit vendor
            </Button>
            <Button size="sm" variant="ghost" loading={busy === 'archive'} onClick={() => void setStatus(vendor, vendor.status === 'ARCHIVED' ? 'ACTIVE' : 'ARCHIVED')}>
              {vendor.status === 'ARCHIVED' ? 'Unarchive' : 'Archive'}
            </Button>
          </div>
          {!online && <p className="notice notice-warn">You’re offline. Changes to this vendor, and revealing its bank account, need a connection.</p>}
          <FormError message={error} />

          <section aria-labelledby={`${vendor.id}-details`}>
            <h3 id={`${vendor.id}-details`} className="claim-section-title">Details</h3>
            <Facts rows={detailFacts(vendor)} />
          </section>

          <section aria-labelledby={`${vendor.id}-bank`} className="vendor-bank-section">
            <h3 id={`${vendor.id}-bank`} className="claim-section-title">Bank account</h3>
            {vendor.bank_account ? (
              revealed ? (
                <div className="vendor-revealed" data-testid="revealed-bank">
                  <Facts
                    rows={[
                      ['Routing number', <span className="mono" key="r">{revealed.routing_number}</span>],
                      ['Account number', <span className="mono" key="a">{revealed.account_number}</span>],
                      ['Type', ACCOUNT_TYPE_LABELS[revealed.account_type]],
                    ]}
                  />
                  <p className="muted vendor-reveal-note">Shown for 30 seconds.</p>
                  <Button size="sm" onClick={() => setRevealed(null)}>Hide numbers</Button>
                </div>
              ) : (
                <p className="vendor-masked" data-testid="masked-bank">{bankDetailText(vendor.bank_account)}</p>
              )
            ) : (
              <p className="muted">{NO_BANK}. Add one to pay this vendor by ACH.</p>
            )}
            <div className="vendor-bank-actions">
              {vendor.bank_account && !revealed && (
                <Button size="sm" loading={busy === 'reveal'} onClick={() => void reveal(vendor)}>
                  Reveal numbers
                </Button>
              )}
              <Button size="sm" variant={vendor.bank_account ? 'ghost' : 'secondary'} onClick={() => setSettingBank(true)}>
                {vendor.bank_account ? 'Replace bank account' : 'Set bank account'}
              </Button>
            </div>
          </section>

          <section aria-labelledby={`${vendor.id}-contacts`}>
            <h3 id={`${vendor.id}-contacts`} className="claim-section-title">Contacts</h3>
            {vendor.contacts.length === 0 ? (
              <p className="muted">No contacts yet. Add the people who send invoices or take payment questions with Edit vendor.</p>
            ) : (
              <ul className="vendor-contacts">
                {vendor.contacts.map((c) => (
                  <li key={c.id}>
                    <span className="vendor-contact-name">{c.name}</span>
                    {c.email && <a href={`mailto:${c.email}`}>{c.email}</a>}
                    {c.phone && <span className="muted">{c.phone}</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
      {vendor && settingBank && (
        <BankAccountDialog
          vendor={vendor}
          client={client}
          sensitive={sensitive}
          onClose={() => setSettingBank(false)}
          onSaved={(v) => {
            onAnswer(v);
            setSettingBank(false);
            toastInfo(`Bank account saved for ${endSentence(v.name)}`);
          }}
        />
      )}
      {sensitive.prompting && (
        <StepUpDialog
          onDone={sensitive.confirmed}
          onCancel={sensitive.cancelled}
        />
      )}
    </Drawer>
  );
}

function detailFacts(v: Vendor): Fact[] {
  const lines = addressLines(v.address);
  return [
    ['Email', v.email ? <a href={`mailto:${v.email}`} key="e">{v.email}</a> : <span className="muted" key="e">—</span>],
    ['Phone', v.phone ?? <span className="muted" key="p">—</span>],
    ['Address', lines.length ? <span className="vendor-address" key="a">{lines.map((l) => <span key={l}>{l}</span>)}</span> : <span className="muted" key="a">—</span>],
    ['Updated', formatDay(v.updated_at)],
  ];
}
