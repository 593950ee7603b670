import { Link } from '@tanstack/react-router';
import type { PolicyResponse } from '../../../schema/api/calls-approval-policies.ts';
import { MAX_POLICY_STEPS } from '../../../schema/approval-policy.ts';
import { Button } from '../../components/button.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { StepEditor } from './policy-step-editor.tsx';
import { errorStep, type PolicyNames } from './policy-text.ts';
import { useApprovalPolicy } from './use-approval-policy.ts';

type Policy = ReturnType<typeof useApprovalPolicy>;

/**
 * Issue 25: the bill approval policy for admins (§7 Approvals; the server's rules are
 * schema/approval-policy.ts). The policy is an ordered chain of steps; each step has a condition
 * (an amount threshold in one currency, vendors, departments, entities: every clause must match,
 * else the step is skipped) and its approvers (a person, a role, the requester's manager, a group
 * of any one or all). Admins add, edit, move and remove steps; saving lists what changes and asks
 * first, then replaces the policy as its next version (running approvals keep their chain). The
 * server's field errors show under the step they name. State: use-approval-policy.ts; a step's
 * editor: policy-step-editor.tsx.
 */
export function ApprovalPolicyPage() {
  const p = useApprovalPolicy();
  const { shown, saved } = p;
  return (
    <div className="page">
    <div className="page-narrow policy-page">
      <div className="page-header">
        <h1>Bill approval policy</h1>
        <span className="spacer" />
        <Link to="/approvals" className="btn btn-ghost btn-sm">
          Back to approvals
        </Link>
      </div>
      <p className="muted policy-intro">
        Every bill submitted goes through these steps in order. A step with a condition is skipped when the bill does not match it. Nobody approves their
        own bill; a step left without an eligible approver goes to the admins, and so does a bill no step applies to. Changes apply to bills submitted
        after saving: bills already waiting keep their chain.
      </p>
      {shown.state === 'loading' && <p className="muted" role="status">Loading the policy…</p>}
      {shown.state === 'failed' && (
        <div className="policy-failed" role="alert">
          <p>{shown.message}</p>
          {p.online && (
            <Button variant="ghost" size="sm" onClick={p.retry}>
              Try again
            </Button>
          )}
        </div>
      )}
      {saved && <PolicyChain p={p} saved={saved} />}
      {p.confirm && <SaveDialog changes={p.confirm} busy={p.busy} onClose={p.closeConfirm} onSave={() => void p.save()} />}
    </div>
    </div>
  );
}

/** "Version 3, saved … by …", or the built-in policy's words. */
function versionText(saved: PolicyResponse, names: PolicyNames): string {
  if (saved.is_default) return 'The built-in policy: the requester’s manager approves (the admins when there is none). Nobody has changed it yet.';
  const when = saved.updated_at ? `, saved ${formatLocalDateTime(saved.updated_at)}` : '';
  const who = saved.updated_by ? ` by ${names.user(saved.updated_by) || 'an admin'}` : '';
  return `Version ${saved.version}${when}${who}.`;
}

/** The saved policy's version, the steps being edited, the errors not tied to a step, and the actions. */
function PolicyChain({ p, saved }: { p: Policy; saved: PolicyResponse }) {
  const { drafts, reference, names } = p;
  const formErrors = Object.entries(p.errors).filter(([path]) => errorStep(path) === null);
  const vendorOptions = reference.data.vendors.map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label));
  const entityOptions = reference.data.entities.map((e) => ({ value: e.id, label: e.name }));
  return (
    <>
      <p className="muted policy-version">{versionText(saved, names)}</p>
      <ol className="policy-steps" aria-label="Approval chain">
        {drafts.map((d, i) => (
          <li key={d.key} className="policy-step">
            <StepEditor index={i} count={drafts.length} draft={d} errors={p.errors} names={names} currencies={currencyChoices(p.currency, d.currency)}
              userOptions={reference.options.users} vendorOptions={vendorOptions} departmentOptions={reference.options.departments}
              entityOptions={entityOptions} onChange={(change) => p.patch(d.key, change)} onMove={(by) => p.move(i, by)} onRemove={() => p.remove(d.key)} />
          </li>
        ))}
      </ol>
      {drafts.length === 0 && <p className="muted policy-empty">No steps: every bill will go to the admins, any one of whom approves it.</p>}
      {formErrors.length > 0 && (
        <ul className="field-error policy-errors">
          {formErrors.map(([path, message]) => <li key={path}>{message}</li>)}
        </ul>
      )}
      <FormError message={p.formError} />
      <div className="policy-actions">
        <Button variant="ghost" disabled={drafts.length >= MAX_POLICY_STEPS} onClick={p.add}>
          Add step
        </Button>
        <span className="spacer" />
        <Button variant="ghost" disabled={!p.dirty || p.busy} onClick={() => p.adopt(saved)}>
          Discard changes
        </Button>
        <Button variant="primary" disabled={!p.dirty || !p.online} onClick={p.askSave}>
          Save policy…
        </Button>
      </div>
    </>
  );
}

/** What saving changes, asked first. */
function SaveDialog({ changes, busy, onClose, onSave }: { changes: readonly string[]; busy: boolean; onClose(): void; onSave(): void }) {
  return (
    <Modal
      title="Save the bill approval policy?"
      description="Bills submitted from now on follow the new policy; bills already waiting keep their chain."
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <ul className="policy-changes" aria-label="Changes">
        {changes.map((c) => <li key={c}>{c}</li>)}
      </ul>
      <ModalActions onCancel={onClose} submitLabel="Save policy" busy={busy} />
    </Modal>
  );
}
