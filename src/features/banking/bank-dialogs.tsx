import { useRef, useState } from 'react';
import type { LinkedBankAccount } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog, DeleteDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { StepUpDialog } from '../../components/step-up-dialog.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { ACCOUNT_TYPE_LABELS } from '../../lib/bank-form.ts';
import { errorText } from '../../lib/error-text.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import {
  attemptsText, bankLinkValuesOf, debitAmounts, editPatch, emptyBankLink, linkBody, refusalText, routingCheck, serverFieldErrors, withoutFieldErrors,
  type BankLinkValues, type FormErrors,
} from './bank-link-form.ts';

export interface EntityChoice {
  id: string;
  name: string;
}

export interface BankLinkDialogProps {
  client: DataClient;
  /** The account edited, or null to link a new one. */
  editing: LinkedBankAccount | null;
  entities: readonly EntityChoice[];
  currency: string;
  online: boolean;
  onClose(): void;
  onSaved(account: LinkedBankAccount, message: string): void;
}

/**
 * "Link bank account" / "Edit bank account": name, bank, checking or savings, routing number
 * (the ABA checksum said as it is typed), account number, entity. Saving is sensitive: the
 * person confirms it's them first (step-up, as vendors' bank details), this form staying open
 * underneath with what was typed. New numbers on an edit reset verification, and the form says so.
 */
export function BankLinkDialog({ client, editing, entities, currency, online, onClose, onSaved }: BankLinkDialogProps) {
  const [values, setValues] = useState<BankLinkValues>(() => (editing ? bankLinkValuesOf(editing) : emptyBankLink()));
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sensitive = useSensitiveAction();
  const key = useRef(crypto.randomUUID());
  // Typing in a field takes back the error the last save put on it (a fixed routing number must
  // not keep saying it is invalid until the next save); the live checksum still speaks meanwhile.
  const set = (patch: Partial<BankLinkValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => withoutFieldErrors(e, Object.keys(patch)));
  };
  const routing = routingCheck(values.routing_number);
  const edit = editing ? editPatch(editing, values) : null;

  async function submit() {
    setError(null);
    const checked = editing ? edit! : linkBody(values, currency);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    if ('patch' in checked && Object.keys(checked.patch).length === 0) return onClose();
    setBusy(true);
    let saved: LinkedBankAccount | null = null;
    await sensitive.run(
      async () => {
        const r = editing && 'patch' in checked
          ? await client.updateBankAccount(editing.id, checked.patch)
          : await client.linkBankAccount((checked as { body: Parameters<DataClient['linkBankAccount']>[0] }).body, key.current);
        if (r.ok) saved = r.account;
        return r;
      },
      (r) => {
        setBusy(false);
        if (saved) {
          const s: LinkedBankAccount = saved;
          return onSaved(s, editing ? `“${s.name}” saved.` : `“${s.name}” linked. Verify it with two small deposits before moving money.`);
        }
        if (r.ok) return;
        setErrors(serverFieldErrors(r.error));
        setError(refusalText(r.error));
      },
    );
    setBusy(false);
  }

  const routingHint = routing.state === 'typing' || routing.state === 'valid' ? routing.message : editing ? `Now ${editing.routing_number}. Leave blank to keep the numbers.` : undefined;
  return (
    <>
      <Modal
        title={editing ? `Edit ${editing.name}` : 'Link bank account'}
        description={editing
          ? 'New numbers need verifying again. You’ll be asked to confirm it’s you before changes are saved.'
          : 'A US bank account of the business. You’ll be asked to confirm it’s you before it’s saved.'}
        onClose={onClose}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="modal-fields">
          <TextField label="Name" value={values.name} onChange={(name) => set({ name })} error={errors.name} maxLength={100} autoFocus />
          <TextField label="Bank name" value={values.bank_name} onChange={(bank_name) => set({ bank_name })} error={errors.bank_name} maxLength={100} />
          <SelectField
            label="Account type"
            value={values.account_type}
            options={(['CHECKING', 'SAVINGS'] as const).map((t) => ({ value: t, label: ACCOUNT_TYPE_LABELS[t] }))}
            onChange={(t) => set({ account_type: t as BankLinkValues['account_type'] })}
          />
          <TextField
            label="Routing number"
            autoComplete="off"
            value={values.routing_number}
            onChange={(routing_number) => set({ routing_number })}
            error={errors.routing_number ?? (routing.state === 'invalid' ? routing.message : undefined)}
            hint={routingHint}
            maxLength={11}
          />
          <TextField label="Account number" autoComplete="off" value={values.account_number} onChange={(account_number) => set({ account_number })} error={errors.account_number} maxLength={21}
            hint={editing ? `Now ${editing.account_number_masked}.` : undefined} />
          {entities.length > 0 && (
            <SelectField
              label="Entity"
              value={values.entity_id}
              leading={[{ value: '', label: 'No entity' }]}
              options={entities.map((e) => ({ value: e.id, label: e.name }))}
              onChange={(entity_id) => set({ entity_id })}
            />
          )}
        </div>
        {edit?.ok && edit.resetsVerification && (
          <p className="notice notice-warn">New numbers make this account unverified until two new deposits are confirmed.</p>
        )}
        {!online && <p className="notice">You’re offline. Linking a bank account needs a connection; what you typed stays here.</p>}
        <FormError message={error} />
        <ModalActions submitLabel={editing ? 'Save changes' : 'Link account'} busy={busy} submitDisabled={!online} onCancel={onClose} />
      </Modal>
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </>
  );
}

/** The account's full numbers, after step-up; never kept (closing the dialog forgets them). */
export function RevealDialog({ account, numbers, onClose }: { account: LinkedBankAccount; numbers: { routing_number: string; account_number: string; account_type: string }; onClose(): void }) {
  return (
    <Modal title={`${account.name} numbers`} description="Shown once: close this when you’re done." onClose={onClose}>
      <dl className="bank-numbers">
        <dt>Routing number</dt>
        <dd className="mono">{numbers.routing_number}</dd>
        <dt>Account number</dt>
        <dd className="mono">{numbers.account_number}</dd>
        <dt>Account type</dt>
        <dd>{ACCOUNT_TYPE_LABELS[numbers.account_type as 'CHECKING'] ?? numbers.account_type}</dd>
      </dl>
      <div className="modal-actions">
        <Button variant="primary" onClick={onClose}>Done</Button>
      </div>
    </Modal>
  );
}

/** "Send two small deposits", asked first: what happens, to which account, how long it takes. */
export function SendDepositsDialog({ client, account, onClose, onDone }: { client: DataClient; account: LinkedBankAccount; onClose(): void; onDone(a: LinkedBankAccount): void }) {
  const [error, setError] = useState<string | null>(null);
  const key = useRef(crypto.randomUUID());
  return (
    <ConfirmDialog
      title={`Send two small deposits to ${account.name}?`}
      description={`Two deposits under $1.00 each go to ${account.bank_name || 'the bank'} ${account.account_number_masked} within 1–2 business days. Then enter the two amounts here to verify the account.`}
      confirmLabel="Send two deposits"
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const r = await client.startDebitCheck(account.id, key.current);
        if (!r.ok) {
          setError(refusalText(r.error));
          return false;
        }
        onDone(r.account);
        return true;
      }}
    >
      <FormError message={error} />
    </ConfirmDialog>
  );
}

/** "Enter the two amounts": cents, in any order; tries left shown, and what a lockout means. */
export function VerifyAmountsDialog({ client, account, onClose, onDone }: { client: DataClient; account: LinkedBankAccount; onClose(): void; onDone(a: LinkedBankAccount): void }) {
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [left, setLeft] = useState(account.attempts_left);
  const [busy, setBusy] = useState(false);
  async function submit() {
    setError(null);
    const checked = debitAmounts(first, second);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    const r = await client.verifyDebitCheck(account.id, checked.amounts);
    setBusy(false);
    if (r.ok) return onDone(r.account);
    if (r.error.error_code === 'BANKING_7002') {
      // The tries left in the dialog's own words ("2 tries left."), as its description says them.
      const more = /(\d+)/.exec(r.error.errors?.amounts ?? '');
      const n = more ? Number(more[1]) : null;
      if (n !== null) setLeft(n);
      setError(n === null ? r.error.message : `${r.error.message} ${attemptsText(n)}`);
      return;
    }
    // The last wrong answer locks the check: nothing more can be tried here.
    if (r.error.error_code === 'BANKING_7003') setLeft(0);
    setError(r.error.error_code === 'BANKING_7003' ? refusalText(r.error) : errorText(r.error));
  }
  return (
    <Modal
      title={`Verify ${account.name}`}
      description={`Find the two deposits under $1.00 on ${account.account_number_masked}’s statement and enter them in cents, in any order. ${attemptsText(left)}`}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="modal-fields bank-cents">
        <TextField label="First deposit (cents)" value={first} onChange={(v) => { setFirst(v); setErrors((e) => withoutFieldErrors(e, ['first'])); }} error={errors.first} maxLength={5} autoComplete="off" autoFocus />
        <TextField label="Second deposit (cents)" value={second} onChange={(v) => { setSecond(v); setErrors((e) => withoutFieldErrors(e, ['second'])); }} error={errors.second} maxLength={5} autoComplete="off" />
      </div>
      <p className="muted">Too many wrong answers lock verification: then send two new deposits and enter those.</p>
      <FormError message={error} />
      <ModalActions submitLabel="Verify" busy={busy} submitDisabled={left === 0} onCancel={onClose} />
    </Modal>
  );
}

/** Delete asked first; BANKING_7004 (transfers on their way, a policy using it) explained in the dialog. */
export function DeleteBankDialog({ client, account, onClose, onDeleted }: { client: DataClient; account: LinkedBankAccount; onClose(): void; onDeleted(): void }) {
  return (
    <DeleteDialog
      title={`Delete ${account.name}?`}
      description={`${account.bank_name || 'Bank account'} ${account.account_number_masked} is unlinked: no money can move to or from it in Ledgerline. Its statements and past transfers stay on record.`}
      confirmLabel="Delete bank account"
      onClose={onClose}
      onDelete={async () => {
        const r = await client.deleteBankAccount(account.id);
        if (r.ok) {
          onDeleted();
          return null;
        }
        return { error_code: r.error.error_code, message: refusalText(r.error) };
      }}
    />
  );
}
