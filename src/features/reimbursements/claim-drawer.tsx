import { useState, type ReactNode } from 'react';
import type { CommandName } from '../../../schema/commands/index.ts';
import { formatMoney } from '../../lib/format.ts';
import { PAYMENT_SETTLEMENT_DAYS, type PaymentMethod } from '../../../schema/reimbursement-rules.ts';
import { Button } from '../../components/button.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { ClaimFacts, ClaimHeadline, ClaimHistory, ClaimReceipts, ClaimRefusal } from '../../components/claim-details.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { LazyCommentThread } from '../../components/lazy-comment-thread.tsx';
import { PolicySection } from '../../components/policy-violations.tsx';
import { Modal } from '../../components/modal.tsx';
import { SYNCED_EDIT_HINT, SyncedLock } from '../../components/synced-lock.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { claimActions, paymentMethods, PAYMENT_METHOD_LABELS, type ClaimActionSet } from '../../lib/claim-actions.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { claimDescription, type ClaimView } from './claim-labels.ts';
import type { ClaimOwner } from './use-claim-rows.ts';
import { useClaimDrawer } from './use-claim-drawer.ts';
import { LazyEventHistory } from '../../components/event-history/lazy-event-history.tsx';

export interface ClaimDrawerProps {
  id: string;
  client: DataClient;
  reference: ReferenceView;
  dataVersion: number;
  /** Whose claims a create made here belongs to (the session's user and business). */
  owner: ClaimOwner;
  /** The receipts region (same slot as the form's), plugged in by the receipts work. */
  receipts?: ReactNode;
  onEdit(claim: ClaimView): void;
  onClose(): void;
  returnFocus(): HTMLElement | null | undefined;
}

/** The confirmation open over the drawer, if any. */
type Confirming = 'cancel' | 'delete' | 'pay' | 'cancelPayment' | null;

/**
 * One claim: its fields, sync state (with the server's reason when refused), receipts, history,
 * and the actions the status machine and the viewer's role allow (`lib/claim-actions.ts`): the
 * claimant edits, submits, resubmits, cancels or deletes a draft; an admin pays (ACH or payroll,
 * after a confirmation naming amount and payee) or cancels a payment before it settles. Each runs
 * as a command through the worker (offline too); the server is the authority and its refusal
 * shows here and on the row.
 */
export function ClaimDrawer({ id, client, reference, dataVersion, owner, receipts, onEdit, onClose, returnFocus }: ClaimDrawerProps) {
  const { claim, busy, run, heading } = useClaimDrawer(client, id, dataVersion, owner);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const viewer = useAppState((s) => s.session?.user ?? null);
  const actions = claim && viewer ? claimActions(claim, viewer, new Date()) : null;
  const title = claim ? claimDescription(claim) : claim === null ? 'Reimbursement not found' : 'Reimbursement';
  return (
    // Non-modal like the transactions drawer: the list beside it stays live (j/k move the open claim).
    <Drawer title={title} titleRef={heading} closeLabel="Close details" modal={false} onClose={onClose} returnFocus={returnFocus}>
      {claim && (
        <div className="drawer-body claim-detail">
          <ClaimHeadline claim={claim} />
          <ClaimRefusal row={claim} client={client} />
          {claim.accounting_synced_at && <SyncedLock client={client} type="reimbursement" id={claim.id} syncedAt={claim.accounting_synced_at} />}
          {claim.status === 'REJECTED' && claim.rejection_reason && (
            <div className="notice notice-warn">
              <strong>Rejected:</strong> {claim.rejection_reason}
            </div>
          )}
          <ClaimFacts claim={claim} reference={reference} claimant={claim.user_id !== viewer?.id} />
          <PolicySection client={client} objectType="reimbursement" id={claim.id} version={dataVersion} />
          <ClaimReceipts claim={claim} client={client} version={dataVersion}>{receipts}</ClaimReceipts>
          <ClaimHistory claim={claim} />
          {actions && (
            <ClaimActions
              claim={claim}
              actions={actions}
              busy={busy}
              onEdit={onEdit}
              onSubmit={() => void run('reimbursement.submit', { reimbursement_id: claim.id }, 'Submitted. It syncs in the background.')}
              onResubmit={() => void run('reimbursement.resubmit', { reimbursement_id: claim.id }, 'Resubmitted. It syncs in the background.')}
              onConfirm={setConfirming}
            />
          )}
          <LazyCommentThread subjectType="reimbursement" subjectId={claim.id} />
          <LazyEventHistory entityType="reimbursement" entityId={claim.id} />
        </div>
      )}
      {claim && confirming && (
        <ClaimConfirmation
          what={confirming}
          claim={claim}
          payee={reference.names.user(claim.user_id) || 'the claimant'}
          busy={busy !== null}
          run={run}
          onDone={() => setConfirming(null)}
          onDeleted={onClose}
        />
      )}
    </Drawer>
  );
}

interface ClaimConfirmationProps {
  what: Exclude<Confirming, null>;
  claim: ClaimView;
  payee: string;
  busy: boolean;
  run: ReturnType<typeof useClaimDrawer>['run'];
  /** Closes the confirmation (kept, or its command queued). */
  onDone(): void;
  /** A draft was deleted: the drawer closes too. */
  onDeleted(): void;
}

/** The confirmation open over the drawer: cancel the claim, delete the draft, pay it, or cancel its payment. */
function ClaimConfirmation({ what, claim, payee, busy, run, onDone, onDeleted }: ClaimConfirmationProps) {
  const online = useAppState((s) => s.online);
  const id = { reimbursement_id: claim.id };
  const amount = formatMoney(claim.amount, claim.currency);
  if (what === 'pay') {
    return (
      <PayDialog claim={claim} payee={payee} online={online} busy={busy} onClose={onDone}
        onPay={async (method) => {
          const done = online ? 'Payment sent.' : 'Payment saved. It will be sent once, when you are back online.';
          if (await run('reimbursement.pay', { ...id, method }, done)) onDone();
        }} />
    );
  }
  if (what === 'cancel') {
    return (
      <ConfirmDialog title="Cancel this claim?" confirmLabel="Cancel claim" busy={busy} onClose={onDone}
        onConfirm={async () => {
          if (await run('reimbursement.cancel', id, 'Claim canceled.')) onDone();
        }}>
        <p>
          {claimDescription(claim)}, {amount}, will be canceled
          {claim.status === 'SUBMITTED' ? ' and its review withdrawn' : ''}. A canceled claim cannot be reopened.
        </p>
      </ConfirmDialog>
    );
  }
  if (what === 'delete') {
    return (
      <ConfirmDialog title="Delete this draft?" confirmLabel="Delete draft" busy={busy} onClose={onDone}
        onConfirm={async () => {
          if (await run('reimbursement.delete', id, 'Draft deleted.')) {
            onDone();
            onDeleted();
          }
        }}>
        <p>
          {claimDescription(claim)}, {amount}, will be deleted. This cannot be undone.
        </p>
      </ConfirmDialog>
    );
  }
  return (
    <ConfirmDialog title="Cancel this payment?" confirmLabel="Cancel payment" busy={busy} onClose={onDone}
      onConfirm={async () => {
        if (await run('reimbursement.cancelPayment', id, 'Payment canceled.')) onDone();
      }}>
      <p>
        The payment of {amount} to {payee} will be reversed and the claim goes back to Approved.
      </p>
    </ConfirmDialog>
  );
}

interface ClaimActionsProps {
  claim: ClaimView;
  actions: ClaimActionSet;
  busy: CommandName | null;
  onEdit(c: ClaimView): void;
  onSubmit(): void;
  onResubmit(): void;
  onConfirm(what: Exclude<Confirming, null>): void;
}

function ClaimActions({ claim, actions, busy, onEdit, onSubmit, onResubmit, onConfirm }: ClaimActionsProps) {
  if (!Object.values(actions).some(Boolean)) return null;
  return (
    <div className="drawer-actions">
      {actions.submit && (
        <Button variant="primary" loading={busy === 'reimbursement.submit'} disabled={busy !== null} onClick={onSubmit}>
          Submit
        </Button>
      )}
      {actions.resubmit && (
        <Button variant="primary" loading={busy === 'reimbursement.resubmit'} disabled={busy !== null} onClick={onResubmit}>
          Resubmit
        </Button>
      )}
      {actions.pay && (
        <Button variant="primary" disabled={busy !== null} onClick={() => onConfirm('pay')}>
          Pay
        </Button>
      )}
      {/* Issue 12: an exported claim's amount and coding are locked until it is marked not synced. */}
      {actions.edit && (
        <Button
          disabled={!!claim.accounting_synced_at}
          title={claim.accounting_synced_at ? SYNCED_EDIT_HINT : undefined}
          onClick={() => onEdit(claim)}
        >
          Edit
        </Button>
      )}
      {actions.cancelPayment && (
        <Button disabled={busy !== null} onClick={() => onConfirm('cancelPayment')}>
          Cancel payment
        </Button>
      )}
      {actions.cancel && (
        <Button variant="ghost" disabled={busy !== null} onClick={() => onConfirm('cancel')}>
          Cancel claim
        </Button>
      )}
      {actions.deleteDraft && (
        <Button variant="danger" disabled={busy !== null} onClick={() => onConfirm('delete')}>
          Delete draft
        </Button>
      )}
    </div>
  );
}

function ConfirmDialog(props: { title: string; confirmLabel: string; busy: boolean; onClose(): void; onConfirm(): Promise<void>; children: ReactNode }) {
  return (
    <Modal title={props.title} onClose={props.onClose} onSubmit={(e) => (e.preventDefault(), props.onConfirm())}>
      {props.children}
      <div className="modal-actions">
        <Button variant="ghost" onClick={props.onClose}>
          Keep it
        </Button>
        <Button type="submit" variant="danger" loading={props.busy}>
          {props.confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}

/**
 * The payment's explicit confirmation: amount and payee, the method (payroll only when the rules
 * allow it), and offline, that the payment waits and is sent exactly once when back online.
 */
function PayDialog(props: { claim: ClaimView; payee: string; online: boolean; busy: boolean; onClose(): void; onPay(method: PaymentMethod): Promise<void> }) {
  const { claim, payee } = props;
  const methods = paymentMethods(undefined);
  const [method, setMethod] = useState<PaymentMethod>('ACH');
  const amount = formatMoney(claim.amount, claim.currency);
  return (
    <Modal
      title={`Pay ${amount} to ${payee}?`}
      description={`${claimDescription(claim)} · approved claim`}
      onClose={props.onClose}
      onSubmit={(e) => (e.preventDefault(), props.onPay(method))}
    >
      <fieldset className="pay-methods">
        <legend>Payment method</legend>
        {methods.map((m) => (
          <label key={m} className="pay-method">
            <input type="radio" name="pay-method" value={m} checked={method === m} onChange={() => setMethod(m)} />
            {PAYMENT_METHOD_LABELS[m]}
          </label>
        ))}
        {methods.includes('PAYROLL') && (
          <p className="muted">Payroll only works for a claimant paid through payroll (with a payroll currency); the server checks it.</p>
        )}
      </fieldset>
      <p>
        {amount} will be paid to {payee}. Until it settles ({PAYMENT_SETTLEMENT_DAYS} days) the payment can be canceled.
      </p>
      {!props.online && (
        <p className="notice notice-warn" role="note">
          You’re offline. The payment will be sent when you’re back online, exactly once.
        </p>
      )}
      <ModalActions onCancel={props.onClose} cancelLabel="Don’t pay" submitLabel={`Pay ${amount}`} busy={props.busy} />
    </Modal>
  );
}
