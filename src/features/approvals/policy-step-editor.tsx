import type { ApproverSpec } from '../../../schema/approval-policy.ts';
import { MAX_GROUP_SIZE } from '../../../schema/approval-policy.ts';
import { ROLES, roleDisplayName, type Role } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { conditionText, errorStep, stepText, toBody, type DraftStep, type PolicyErrors, type PolicyNames } from './policy-text.ts';

/** The roles a step may name: the business's own roles, the unbundled and console ones left out. */
const STEP_ROLES: readonly Role[] = ['BUSINESS_ADMIN', 'BUSINESS_OWNER', 'BUSINESS_BOOKKEEPER', 'BUSINESS_USER'].filter((r): r is Role =>
  (ROLES as readonly string[]).includes(r));

const APPROVER_KINDS: readonly SelectOption[] = [
  { value: 'manager', label: 'The requester’s manager' },
  { value: 'user', label: 'A specific person' },
  { value: 'role', label: 'Anyone with a role' },
  { value: 'group', label: 'A group of people' },
  { value: 'approval_group', label: 'A named approval group' },
];

function approverOfKind(kind: string, current: ApproverSpec): ApproverSpec {
  if (kind === current.kind) return current;
  if (kind === 'user') return { kind: 'user', user_id: '' };
  if (kind === 'role') return { kind: 'role', role: 'BUSINESS_ADMIN' };
  if (kind === 'group') return { kind: 'group', user_ids: [], mode: 'any' };
  if (kind === 'approval_group') return { kind: 'approval_group', group_id: '' };
  return { kind: 'manager' };
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
  /** Issue 29: the business's named approval groups. */
  groupOptions: readonly SelectOption[];
  onChange(change: Partial<DraftStep>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

/** One step: its condition, its approvers, and moving or removing it. */
export function StepEditor(p: StepEditorProps) {
  const { index, draft: d, errors, names } = p;
  const n = index + 1;
  const mine = Object.entries(errors).filter(([path]) => errorStep(path) === index);
  const errorAt = (suffix: string) => mine.find(([path]) => path.endsWith(suffix))?.[1] ?? null;
  const other = mine.filter(([path]) => !/(min_amount\.amount|approvers\.user_id|approvers\.user_ids|approvers\.group_id)$/.test(path));
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
          {a.kind === 'approval_group' && (
            <label className="field">
              <span className="field-label">Group</span>
              <select value={a.group_id} aria-invalid={errorAt('approvers.group_id') ? true : undefined}
                onChange={(e) => p.onChange({ approvers: { kind: 'approval_group', group_id: e.target.value } })}>
                <option value="">{p.groupOptions.length === 0 ? 'No groups yet: create one below' : 'Choose a group…'}</option>
                {p.groupOptions.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
              </select>
              {errorAt('approvers.group_id') && <span className="field-error">{errorAt('approvers.group_id')}</span>}
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

