import { lazy, Suspense } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { payeeHoldMessage } from '../../../schema/vendor-rules.ts';
import { PAYEE_CHANGE_LABELS } from '../../lib/payment-approval-labels.ts';
import { Button } from '../../components/button.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { Facts, type Fact } from '../../components/facts.tsx';
import { FormError } from '../../components/form-error.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { formatDay } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { BankAccountDialog } from '../../components/bank-account-dialog.tsx';
import { useVendorDrawer, type VendorDrawerState } from './vendor-drawer-state.ts';
import { ACCOUNT_TYPE_LABELS, addressLines, bankDetailText, endSentence, NO_BANK } from './vendor-view.ts';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

export { REVEAL_MS } from './vendor-drawer-state.ts';

/** Issue 31: the vendor network section, its own chunk. */
const VendorNetworkSection = lazy(() => import('./vendor-network-section.tsx').then((m) => ({ default: m.VendorNetworkSection })));

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
  const d = useVendorDrawer({ vendor, client, onAnswer });
  const { heading, sensitive, busy, settingBank, setSettingBank } = d;

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
            <Button size="sm" variant="ghost" loading={busy === 'archive'} onClick={() => void d.setStatus(vendor, vendor.status === 'ARCHIVED' ? 'ACTIVE' : 'ARCHIVED')}>
              {vendor.status === 'ARCHIVED' ? 'Unarchive' : 'Archive'}
            </Button>
          </div>
          {!online && <p className="notice notice-warn">You’re offline. Changes to this vendor, and revealing its bank account, need a connection.</p>}
          <FormError message={d.error} />
          {vendor.payee_approval && (
            <p className={vendor.payee_approval.status === 'PENDING' ? 'notice' : 'notice notice-warn'} data-testid="payee-approval">
              <strong>{PAYEE_CHANGE_LABELS[vendor.payee_approval.change]}:</strong> {payeeHoldMessage(vendor.name, vendor.payee_approval)}
              {vendor.payee_approval.reason ? ` Reason: ${vendor.payee_approval.reason}` : ''}
            </p>
          )}

          <section aria-labelledby={`${vendor.id}-details`}>
            <h3 id={`${vendor.id}-details`} className="claim-section-title">Details</h3>
            <Facts rows={detailFacts(vendor)} />
          </section>

          <VendorBankSection vendor={vendor} d={d} />

          <VendorContacts vendor={vendor} />

          <Suspense fallback={null}><VendorNetworkSection vendor={vendor} client={client} online={online} sensitive={sensitive} /></Suspense>
          <LazyEventHistory entityType="vendor" entityId={vendor.id} />
        </div>
      )}
      {vendor && settingBank && (
        <BankAccountDialog vendor={vendor} client={client} sensitive={sensitive} onClose={() => setSettingBank(false)}
          onSaved={(v) => {
            onAnswer(v);
            setSettingBank(false);
            // Issue 28: under a payee policy the new account waits for approval before anything is paid to it.
            toastInfo(v.payee_approval?.status === 'PENDING'
              ? `Bank account saved for ${v.name}; it waits for payee approval before any bill is paid to it.`
              : `Bank account saved for ${endSentence(v.name)}`);
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

/** The bank account, masked or revealed for REVEAL_MS; reveal it, set or replace it. */
function VendorBankSection({ vendor, d }: { vendor: Vendor; d: VendorDrawerState }) {
  const { revealed, busy } = d;
  return (
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
            <Button size="sm" onClick={d.hide}>Hide numbers</Button>
          </div>
        ) : (
          <p className="vendor-masked" data-testid="masked-bank">{bankDetailText(vendor.bank_account)}</p>
        )
      ) : (
        <p className="muted">{NO_BANK}. Add one to pay this vendor by ACH.</p>
      )}
      <div className="vendor-bank-actions">
        {vendor.bank_account && !revealed && (
          <Button size="sm" loading={busy === 'reveal'} onClick={() => void d.reveal(vendor)}>
            Reveal numbers
          </Button>
        )}
        <Button size="sm" variant={vendor.bank_account ? 'ghost' : 'secondary'} onClick={() => d.setSettingBank(true)}>
          {vendor.bank_account ? 'Replace bank account' : 'Set bank account'}
        </Button>
      </div>
    </section>
  );
}

/** The people who send invoices or take payment questions. */
function VendorContacts({ vendor }: { vendor: Vendor }) {
  return (
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