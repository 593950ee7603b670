import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PolicyResponse } from '../../../schema/api/calls-approval-policies.ts';
import { MAX_POLICY_STEPS } from '../../../schema/approval-policy.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { StepEditor } from './policy-step-editor.tsx';
import { errorStep, type PolicyNames } from './policy-text.ts';
import { useApprovalPolicy } from './use-approval-policy.ts';
import { ApprovalGroupsPanel } from './approval-groups-panel.tsx';
import { EDITED_POLICY_TYPES } from './policy-types.ts';
import { SimulationPanel } from './simulation-panel.tsx';
import { useApprovalGroups } from './use-approval-groups.ts';

type Policy = ReturnType<typeof useApprovalPolicy>;
const routeApi = getRouteApi('/_app/approvals/policy');

/**
 * Issue 25: the bill approval policy for admins; since issue 29 every §7 type (?type=: bills,
 * card requests, claims, spend requests, vendor payments, payees), named approval groups a step
 * may name, a "try it" simulation (groups and delegates), and a reset to the built-in default (§7 Approvals; the server's rules are
 * schema/approval-policy.ts). The policy is an ordered chain of steps; each step has a condition
 * (an amount threshold in one currency, vendors, departments, entities: every clause must match,
 * else the step is skipped) and its approvers (a person, a role, the requester's manager, a group
 * of any one or all). Admins add, edit, move and remove steps; saving lists what changes and asks
 * first, then replaces the policy as its next version (running approvals keep their chain). The
 * server's field errors show under the step they name. State: use-approval-policy.ts; a step's
 * editor: policy-step-editor.tsx.
 */
export function ApprovalPolicyPage() {
  const type = routeApi.useSearch().type ?? 'bill';
  const g = useApprovalGroups();
  const p = useApprovalPolicy(type, g.groups ?? []);
  const { shown, saved, words } = p;
  return (
    <div className="page">
    <div className="page-narrow policy-page">
      <div className="page-header">
        <h1>{words.title}</h1>
        <span className="spacer" />
        <Link to="/approvals" className="btn btn-ghost btn-sm">
          Back to approvals
        </Link>
      </div>
      <nav className="policy-types" aria-label="Policy types">
        {EDITED_POLICY_TYPES.map((t) => (
          <Link key={t.type} to="/approvals/policy" search={{ type: t.type }} className={t.type === type ? 'policy-type is-current' : 'policy-type'}
            aria-current={t.type === type ? 'page' : undefined}>
            {t.tab}
          </Link>
        ))}
      </nav>
      <p className="muted policy-intro">
        Every {words.item} goes through these steps in order. A step with a condition is skipped when the {words.item} does not match it. Nobody
        approves their own; a step left without an eligible approver goes to the admins, and so does a {words.item} no step applies to. Changes apply
        to {words.items} {words.submitted} after saving: those already waiting keep their chain.
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
      {saved && <PolicyChain key={type} p={p} saved={saved} groupOptions={(g.groups ?? []).map((x) => ({ value: x.id, label: x.name }))} />}
      {p.confirm && <SaveDialog title={`Save the ${words.title.toLowerCase()}?`} items={words.items} changes={p.confirm} busy={p.busy} onClose={p.closeConfirm} onSave={() => void p.save()} />}
      {saved && (
        <SimulationPanel key={`sim-${type}`} objectType={type} words={words} currency={p.currency} currencies={currencyChoices(p.currency, p.currency)} online={p.online}
          userOptions={p.reference.options.users} />
      )}
      <ApprovalGroupsPanel g={g} userOptions={p.reference.options.users} userName={p.names.user} />
    </div>
    </div>
  );
}

/** "Version 3, saved … by …", or the built-in policy's words. */
function versionText(saved: PolicyResponse, names: PolicyNames): string {
  if (saved.is_default && saved.version === 0) return 'The built-in policy: the requester’s manager approves (the admins when there is none). Nobody has changed it yet.';
  if (saved.is_default) return `The built-in policy (reset as version ${saved.version}): the requester’s manager approves (the admins when there is none).`;
  const when = saved.updated_at ? `, saved ${formatLocalDateTime(saved.updated_at)}` : '';
  const who = saved.updated_by ? ` by ${names.user(saved.updated_by) || 'an admin'}` : '';
  return `Version ${saved.version}${when}${who}.`;
}

/** The saved policy's version, the steps being edited, the errors not tied to a step, and the actions. */
function PolicyChain({ p, saved, groupOptions }: { p: Policy; saved: PolicyResponse; groupOptions: { value: string; label: string }[] }) {
  const { drafts, reference, names } = p;
  const [resetting, setResetting] = useState(false);
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
              entityOptions={entityOptions} groupOptions={groupOptions} onChange={(change) => p.patch(d.key, change)} onMove={(by) => p.move(i, by)} onRemove={() => p.remove(d.key)} />
          </li>
        ))}
      </ol>
      {drafts.length === 0 && <p className="muted policy-empty">No steps: every {p.words.item} will go to the admins, any one of whom approves it.</p>}
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
        <Button variant="ghost" disabled={saved.is_default || !p.online || p.busy} onClick={() => setResetting(true)}>
          Reset to default…
        </Button>
        <span className="spacer" />
        <Button variant="ghost" disabled={!p.dirty || p.busy} onClick={() => p.adopt(saved)}>
          Discard changes
        </Button>
        <Button variant="primary" disabled={!p.dirty || !p.online} onClick={p.askSave}>
          Save policy…
        </Button>
      </div>
      {resetting && (
        <ConfirmDialog title={`Reset the ${p.words.title.toLowerCase()}?`} confirmLabel="Reset to default" tone="danger" onClose={() => setResetting(false)}
          description={`Its steps are replaced by the built-in policy: the requester’s manager approves ${p.words.items} ${p.words.submitted} from now on (the admins when there is none). Those already waiting keep their chain.`}
          onConfirm={p.reset} />
      )}
    </>
  );
}

/** What saving changes, asked first. */
function SaveDialog({ title, items, changes, busy, onClose, onSave }: {
  title: string; items: string; changes: readonly string[]; busy: boolean; onClose(): void; onSave(): void;
}) {
  return (
    <Modal
      title={title}
      description={`New ${items} follow the new policy; those already waiting keep their chain.`}
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
