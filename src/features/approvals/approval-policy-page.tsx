import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { PolicyResponse } from '../../../schema/api/calls-approval-policies.ts';
import { MAX_GROUP_SIZE, MAX_POLICY_STEPS, type ApproverSpec } from '../../../schema/approval-policy.ts';
import { ROLES, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import {
  blankStep, conditionText, errorStep, policyChanges, stepText, toBody, toDraft, type DraftStep, type PolicyErrors, type PolicyNames,
} from './policy-text.ts';

/** The roles a step may name: the business's own roles, the unbundled and console ones left out. */
const STEP_ROLES: readonly Role[] = ['BUSINESS_ADMIN', 'BUSINESS_OWNER', 'BUSINESS_BOOKKEEPER', 'BUSINESS_USER'].filter((r): r is Role =>
  (ROLES as readonly string[]).includes(r));

const APPROVER_KINDS: readonly SelectOption[] = [
  { value: 'manager', label: 'The requester’s manager' },
  { value: 'user', label: 'A specific person' },
  { value: 'role', label: 'Anyone with a role' },
  { value: 'group', label: 'A group of people' },
];

function approverOfKind(kind: string, current: ApproverSpec): ApproverSpec {
  if (kind === current.kind) return current;
  if (kind === 'user') return { kind: 'user', user_id: '' };
  if (kind === 'role') return { kind: 'role', role: 'BUSINESS_ADMIN' };
  if (kind === 'group') return { kind: 'group', user_ids: [], mode: 'any' };
  return { kind: 'manager' };
}

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; policy: PolicyResponse };

/**
 * Issue 25: the bill approval policy for admins (§7 Approvals; the server's rules are
 * schema/approval-policy.ts). The policy is an ordered chain of steps; each step has a condition
 * (an amount threshold in one currency, vendors, departments, entities: every clause must match,
 * else the step is skipped) and its approvers (a person, a role, the requester's manager, a group
 * of any one or all). Admins add, edit, move and remove steps; saving lists what changes and asks
 * first, then replaces the policy as its next version (running approvals keep their chain). The
 * server's field errors show under the step they name.
 */
export function ApprovalPolicyPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceData(client, referenceVersion);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [drafts, setDrafts] = useState<DraftStep[]>([]);
  const [errors, setErrors] = useState<PolicyErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const names = useMemo<PolicyNames>(() => {
    const vendors = new Map(reference.data.vendors.map((v) => [v.id, v.name]));
    return { user: reference.names.user, vendor: (id) => vendors.get(id) ?? '', department: reference.names.department, entity: reference.names.entity };
  }, [reference]);

  const adopt = useCallback((policy: PolicyResponse) => {
    setLoad({ state: 'ready', policy });
    setDrafts(policy.steps.map((s) => toDraft(s, currency)));
    setErrors({});
    setFormError(null);
  }, [currency]);

  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.approvalPolicy('bill').then((r) => {
      if (!live) return;
      if (r.ok) adopt(r.policy);
      else setLoad({ state: 'failed', message: errorText(r.error) });
    });
    return () => {
      live = false;
    };
  }, [client, online, adopt, attempt]);
  // Offline before the policy was read: say so (it lives on the server) rather than "Loading…".
  const shown: Load = !online && load.state !== 'ready'
    ? { state: 'failed', message: 'You’re offline. The approval policy is read from the server: connect to see and edit it.' }
    : load;

  const body = toBody(drafts);
  const saved = load.state === 'ready' ? load.policy : null;
  const changes = saved && body.ok ? policyChanges(saved.steps, body.steps, names) : [];
  const dirty = saved !== null && (!body.ok || changes.length > 0);

  const patch = (key: string, change: Partial<DraftStep>) => {
    setDrafts((list) => list.map((d) => (d.key === key ? { ...d, ...change } : d)));
    setErrors({});
  };
  const move = (index: number, by: -1 | 1) => {
    setDrafts((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item!);
      return next;
    });
    setErrors({});
  };

  const askSave = () => {
    setFormError(null);
    if (!body.ok) {
      setErrors(body.errors);
      setFormError('Some steps need attention before saving.');
      return;
    }
    setConfirm(changes);
  };

  const save = async () => {
    if (!body.ok) return;
    setBusy(true);
    try {
      const r = await client.saveApprovalPolicy('bill', body.steps);
      if (r.ok) {
        adopt(r.policy);
        setConfirm(null);
        toastInfo(`Bill approval policy saved (version ${r.policy.version}). Bills submitted from now on follow it.`);
        return;
      }
      setConfirm(null);
      setErrors(r.error.errors ?? {});
      setFormError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  };

  const userOptions = reference.options.users;
  const formErrors = Object.entries(errors).filter(([path]) => errorStep(path) === null);

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
          {online && (
            <Button variant="ghost" size="sm" onClick={() => {
              setLoad({ state: 'loading' });
              setAttempt((n) => n + 1);
            }}>
              Try again
            </Button>
          )}
        </div>
      )}
      {saved && (
        <>
          <p className="muted policy-version">
            {saved.is_default
              ? 'The built-in policy: the requester’s manager approves (the admins when there is none). Nobody has changed it yet.'
              : `Version ${saved.version}${saved.updated_at ? `, saved ${formatLocalDateTime(saved.updated_at)}` : ''}${saved.updated_by ? ` by ${names.user(saved.updated_by) || 'an admin'}` : ''}.`}
          </p>
          <ol className="policy-steps" aria-label="Approval chain">
            {drafts.map((d, i) => (
              <li key={d.key} className="policy-step">
                <StepEditor
                  index={i}
                  count={drafts.length}
                  draft={d}
                  errors={errors}
                  names={names}
                  currencies={currencyChoices(currency, d.currency)}
                  userOptions={userOptions}
                  vendorOptions={reference.data.vendors.map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label))}
                  departmentOptions={reference.options.departments}
                  entityOptions={reference.data.entities.map((e) => ({ value: e.id, label: e.name }))}
                  onChange={(change) => patch(d.key, change)}
                  onMove={(by) => move(i, by)}
                  onRemove={() => {
                    setDrafts((list) => list.filter((x) => x.key !== d.key));
                    setErrors({});
                  }}
                />
              </li>
            ))}
          </ol>
          {drafts.length === 0 && (
            <p className="muted policy-empty">No steps: every bill will go to the admins, any one of whom approves it.</p>
          )}
          {formErrors.length > 0 && (
            <ul className="field-error policy-errors">
              {formErrors.map(([path, message]) => <li key={path}>{message}</li>)}
            </ul>
          )}
          <FormError message={formError} />
          <div className="policy-actions">
            <Button variant="ghost" disabled={drafts.length >= MAX_POLICY_STEPS} onClick={() => setDrafts((list) => [...list, blankStep(currency)])}>
              Add step
            </Button>
            <span className="spacer" />
            <Button variant="ghost" disabled={!dirty || busy} onClick={() => adopt(saved)}>
              Discard changes
            </Button>
            <Button variant="primary" disabled={!dirty || !online} onClick={askSave}>
              Save policy…
            </Button>
          </div>
        </>
      )}
      {confirm && (
        <Modal
          title="Save the bill approval policy?"
          description="Bills submitted from now on follow the new policy; bills already waiting keep their chain."
          onClose={() => setConfirm(null)}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <ul className="policy-changes" aria-label="Changes">
            {confirm.map((c) => <li key={c}>{c}</li>)}
          </ul>
          <div className="modal-actions">
            <Button variant="ghost" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" loading={busy}>
              Save policy
            </Button>
          </div>
        </Modal>
      )}
    </div>
    </div>
  );
}

interface StepEditorProps {
  index: number;
  count: number;
  draft: DraftStep;
  errors: PolicyErrors;
  names: PolicyNames;
  currencies: string[];
  userOptions: readonly SelectOption[];
  vendorOptions: readonly SelectOption[];
  departmentOptions: readonly SelectOption[];
  entityOptions: readonly SelectOption[];
  onChange(change: Partial<DraftStep>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

/** One step: its condition, its approvers, and moving or removing it. */
function StepEditor(p: StepEditorProps) {
  const { index, draft: d, errors, names } = p;
  const n = index + 1;
  const mine = Object.entries(errors).filter(([path]) => errorStep(path) === index);
  const errorAt = (suffix: string) => mine.find(([path]) => path.endsWith(suffix))?.[1] ?? null;
  const other = mine.filter(([path]) => !/(min_amount\.amount|approvers\.user_id|approvers\.user_ids)$/.test(path));
  const a = d.approvers;
  const body = toBody([d]);
  return (
    <section className="policy-step-card" aria-labelledby={`${d.key}-title`}>
      <div className="policy-step-head">
        <h2 id={`${d.key}-title`}>Step {n}</h2>
        <span className="muted policy-step-summary">{body.ok ? stepText(body.steps[0]!, names) : conditionText(null, names)}</span>
        <span className="spacer" />
        <Button variant="ghost" size="sm" disabled={index === 0} aria-label={`Move step ${n} up`} onClick={() => p.onMove(-1)}>↑</Button>
        <Button variant="ghost" size="sm" disabled={index === p.count - 1} aria-label={`Move step ${n} down`} onClick={() => p.onMove(1)}>↓</Button>
        <Button variant="ghost" size="sm" aria-label={`Remove step ${n}`} onClick={p.onRemove}>Remove</Button>
      </div>
      <div className="policy-step-body">
        <fieldset className="policy-fieldset">
          <legend>Applies when (leave blank: always)</legend>
          <MoneyField
            amountLabel={`Amount at or above (step ${n})`}
            amount={d.amount}
            currency={d.currency}
            currencies={p.currencies}
            error={errorAt('min_amount.amount') ?? errorAt('min_amount.currency') ?? errorAt('min_amount')}
            onAmount={(amount) => p.onChange({ amount })}
            onCurrency={(currency) => p.onChange({ currency })}
          />
          <IdList label="Vendor is" noun="vendor" ids={d.vendor_ids} options={p.vendorOptions} name={names.vendor} error={errorAt('vendor_ids')}
            onChange={(vendor_ids) => p.onChange({ vendor_ids })} />
          <IdList label="Department is" noun="department" ids={d.department_ids} options={p.departmentOptions} name={(id) => names.department(id)}
            error={errorAt('department_ids')} onChange={(department_ids) => p.onChange({ department_ids })} />
          {p.entityOptions.length > 0 && (
            <IdList label="Entity is" noun="entity" ids={d.entity_ids} options={p.entityOptions} name={(id) => names.entity(id)} error={errorAt('entity_ids')}
              onChange={(entity_ids) => p.onChange({ entity_ids })} />
          )}
        </fieldset>
        <fieldset className="policy-fieldset">
          <legend>Approved by</legend>
          <SelectField label={`Approver (step ${n})`} value={a.kind} options={APPROVER_KINDS} onChange={(kind) => p.onChange({ approvers: approverOfKind(kind, a) })} />
          {a.kind === 'user' && (
            <label className="field">
              <span className="field-label">Person</span>
              <select value={a.user_id} aria-invalid={errorAt('approvers.user_id') ? true : undefined}
                onChange={(e) => p.onChange({ approvers: { kind: 'user', user_id: e.target.value } })}>
                <option value="">Choose a person…</option>
                {p.userOptions.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
              </select>
              {errorAt('approvers.user_id') && <span className="field-error">{errorAt('approvers.user_id')}</span>}
            </label>
          )}
          {a.kind === 'role' && (
            <SelectField label="Role" value={a.role} options={STEP_ROLES.map((r) => ({ value: r, label: roleDisplayName(r) }))}
              onChange={(role) => p.onChange({ approvers: { kind: 'role', role: role as Role } })} />
          )}
          {a.kind === 'group' && (
            <>
              <IdList label="People" noun="person" ids={a.user_ids} options={p.userOptions} name={names.user} error={errorAt('approvers.user_ids')}
                max={MAX_GROUP_SIZE} onChange={(user_ids) => p.onChange({ approvers: { ...a, user_ids } })} />
              <SelectField label="Who must approve" value={a.mode} options={[{ value: 'any', label: 'Any one of them' }, { value: 'all', label: 'All of them' }]}
                onChange={(mode) => p.onChange({ approvers: { ...a, mode: mode === 'all' ? 'all' : 'any' } })} />
            </>
          )}
        </fieldset>
        {other.length > 0 && (
          <ul className="field-error">
            {other.map(([path, message]) => <li key={path}>{message}</li>)}
          </ul>
        )}
      </div>
    </section>
  );
}

/** A list of ids shown as removable chips, added from a select ("Add a vendor…"). */
function IdList(props: {
  label: string; noun: string; ids: readonly string[]; options: readonly SelectOption[]; name(id: string): string; error: string | null;
  max?: number; onChange(ids: string[]): void;
}) {
  const { label, noun, ids, options, name, error, max = 200, onChange } = props;
  const left = options.filter((o) => !ids.includes(o.value));
  return (
    <div className="field policy-ids">
      <span className="field-label">{label}</span>
      {ids.length > 0 && (
        <ul className="policy-chips" aria-label={label}>
          {ids.map((id) => (
            <li key={id} className="policy-chip">
              <span>{name(id) || `Unknown ${noun}`}</span>
              <button type="button" className="btn-link" aria-label={`Remove ${name(id) || noun}`} onClick={() => onChange(ids.filter((x) => x !== id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {ids.length < max && left.length > 0 && (
        <select aria-label={`Add ${noun} (${label.toLowerCase()})`} value="" onChange={(e) => e.target.value && onChange([...ids, e.target.value])}>
          <option value="">{ids.length === 0 ? `Any ${noun}` : `Add another ${noun}…`}</option>
          {left.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}

