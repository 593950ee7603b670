import { useId } from 'react';
import { VIOLATION_CODES } from '../../../schema/expense-policy.ts';
import { roleDisplayName, type Role } from '../../../schema/roles.ts';
import { ACTIONS_FOR, ACTION_LABELS, CONDITIONS_FOR, type WorkflowTrigger } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { blankAction, blankCondition, type ActionKind, type ConditionKind, type DraftAction, type DraftCondition } from './workflow-draft.ts';
import { CONDITION_LABELS, VIOLATION_WORDS } from './workflow-text.ts';

/** The pickers' choices from reference data (people, departments, vendors, GL accounts, locations). */
export interface PickerOptions {
  users: readonly SelectOption[];
  departments: readonly SelectOption[];
  vendors: readonly SelectOption[];
  glAccounts: readonly SelectOption[];
  locations: readonly SelectOption[];
  currencies: readonly string[];
}

const ROLE_CHOICES: readonly Role[] = ['BUSINESS_ADMIN', 'BUSINESS_OWNER', 'BUSINESS_BOOKKEEPER', 'BUSINESS_USER'];
const roleOptions = ROLE_CHOICES.map((r) => ({ value: r, label: roleDisplayName(r) }));
const OPS = [
  { value: 'lt', label: 'under' }, { value: 'lte', label: 'at most' }, { value: 'gte', label: 'at least' }, { value: 'gt', label: 'over' },
];

/** A select named by its own label only (a wrapping label would add the chosen option's words to its name). */
function Select({ label, value, options, onChange, invalid, placeholder }: {
  label: string; value: string; options: readonly SelectOption[]; onChange(v: string): void; invalid?: boolean; placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <select id={id} value={value} aria-invalid={invalid ? true : undefined} onChange={(e) => onChange(e.target.value)}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </div>
  );
}

function Text({ label, value, onChange, invalid, long }: { label: string; value: string; onChange(v: string): void; invalid?: boolean; long?: boolean }) {
  return (
    <label className="field wf-grow">
      <span className="field-label">{label}</span>
      {long
        ? <textarea rows={2} value={value} maxLength={2000} aria-invalid={invalid ? true : undefined} onChange={(e) => onChange(e.target.value)} />
        : <input type="text" value={value} maxLength={200} aria-invalid={invalid ? true : undefined} onChange={(e) => onChange(e.target.value)} />}
    </label>
  );
}

/** Several ids as removable chips, added from a select. */
function Chips({ label, noun, values, options, onChange }: { label: string; noun: string; values: readonly string[]; options: readonly SelectOption[]; onChange(v: string[]): void }) {
  const name = (v: string) => options.find((o) => o.value === v)?.label ?? `Unknown ${noun}`;
  const left = options.filter((o) => !values.includes(o.value));
  return (
    <div className="field wf-grow">
      <span className="field-label">{label}</span>
      {values.length > 0 && (
        <ul className="wf-chips" aria-label={label}>
          {values.map((v) => (
            <li key={v} className="wf-chip">
              <span>{name(v)}</span>
              <button type="button" className="btn-link" aria-label={`Remove ${name(v)}`} onClick={() => onChange(values.filter((x) => x !== v))}>×</button>
            </li>
          ))}
        </ul>
      )}
      {left.length > 0 && (
        <select aria-label={`Add ${noun}`} value="" onChange={(e) => e.target.value && onChange([...values, e.target.value])}>
          <option value="">{values.length === 0 ? `Choose ${noun}…` : `Add another ${noun}…`}</option>
          {left.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {options.length === 0 && <span className="muted wf-note">None to choose from yet.</span>}
    </div>
  );
}

export interface ConditionEditorProps {
  trigger: WorkflowTrigger;
  draft: DraftCondition;
  /** "Condition 1 of rule 2": names the fields for assistive technology. */
  label: string;
  options: PickerOptions;
  error?: string | undefined;
  onChange(next: DraftCondition): void;
  onRemove(): void;
}

/** One condition: what it checks (only what the trigger's object has), and its value. */
export function ConditionEditor({ trigger, draft: d, label, options, error, onChange, onRemove }: ConditionEditorProps) {
  const kinds = CONDITIONS_FOR[trigger].map((k) => ({ value: k, label: CONDITION_LABELS[k] }));
  const set = (change: Partial<DraftCondition>) => onChange({ ...d, ...change });
  return (
    <div className="wf-row" role="group" aria-label={label}>
      <div className="wf-row-fields">
        <Select label="Check" value={d.kind} options={kinds} onChange={(k) => onChange({ ...blankCondition(k as ConditionKind, d.currency), key: d.key })} />
        {d.kind === 'amount' && (
          <>
            <Select label="Is" value={d.op} options={OPS} onChange={(op) => set({ op: op as DraftCondition['op'] })} />
            <label className="field wf-amount">
              <span className="field-label">Amount</span>
              <input type="text" inputMode="decimal" autoComplete="off" value={d.amount} aria-invalid={error ? true : undefined} onChange={(e) => set({ amount: e.target.value })} />
            </label>
            <Select label="Currency" value={d.currency} options={options.currencies.map((c) => ({ value: c, label: c }))} onChange={(currency) => set({ currency })} />
          </>
        )}
        {d.kind === 'merchant' && (
          <>
            <Select label="Match" value={d.textOp} options={[{ value: 'contains', label: 'contains' }, { value: 'is', label: 'is exactly' }]} onChange={(v) => set({ textOp: v === 'is' ? 'is' : 'contains' })} />
            <Text label="Merchant" value={d.text} invalid={!!error} onChange={(text) => set({ text })} />
          </>
        )}
        {d.kind === 'merchant_category' && <Text label="Categories (comma-separated)" value={d.text} invalid={!!error} onChange={(text) => set({ text })} />}
        {d.kind === 'department' && <Chips label="Departments" noun="a department" values={d.values} options={options.departments} onChange={(values) => set({ values })} />}
        {d.kind === 'person' && <Chips label="People" noun="a person" values={d.values} options={options.users} onChange={(values) => set({ values })} />}
        {d.kind === 'vendor' && <Chips label="Vendors" noun="a vendor" values={d.values} options={options.vendors} onChange={(values) => set({ values })} />}
        {d.kind === 'role' && <Chips label="Roles" noun="a role" values={d.values} options={roleOptions} onChange={(values) => set({ values })} />}
        {d.kind === 'policy_violation' && (
          <Chips label="Any of" noun="a violation" values={d.values} options={VIOLATION_CODES.map((c) => ({ value: c, label: VIOLATION_WORDS[c] }))} onChange={(values) => set({ values })} />
        )}
      </div>
      <Button variant="ghost" size="sm" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>Remove</Button>
      {error && <p className="field-error wf-row-error">{error}</p>}
    </div>
  );
}

export interface ActionEditorProps {
  trigger: WorkflowTrigger;
  draft: DraftAction;
  label: string;
  options: PickerOptions;
  error?: string | undefined;
  onChange(next: DraftAction): void;
  onRemove?: (() => void) | undefined;
}

/** One action: what it does (only what fits the trigger) and its settings. */
export function ActionEditor({ trigger, draft: d, label, options, error, onChange, onRemove }: ActionEditorProps) {
  const kinds = ACTIONS_FOR[trigger].map((k) => ({ value: k, label: ACTION_LABELS[k] }));
  if (!ACTIONS_FOR[trigger].includes(d.kind)) kinds.push({ value: d.kind, label: `${ACTION_LABELS[d.kind]} (does not fit this trigger)` });
  const set = (change: Partial<DraftAction>) => onChange({ ...d, ...change });
  return (
    <div className="wf-row" role="group" aria-label={label}>
      <div className="wf-row-fields">
        <Select label="Do" value={d.kind} options={kinds} onChange={(k) => onChange({ ...blankAction(k as ActionKind, d.currency), key: d.key })} />
        {d.kind === 'auto_approve' && (
          <>
            <label className="field wf-amount">
              <span className="field-label">When under</span>
              <input type="text" inputMode="decimal" autoComplete="off" value={d.amount} aria-invalid={error ? true : undefined} onChange={(e) => set({ amount: e.target.value })} />
            </label>
            <Select label="Currency" value={d.currency} options={options.currencies.map((c) => ({ value: c, label: c }))} onChange={(currency) => set({ currency })} />
          </>
        )}
        {d.kind === 'set_coding' && (
          <>
            <Select label="GL account" value={d.gl_account_id} options={options.glAccounts} placeholder="Leave as is" onChange={(gl_account_id) => set({ gl_account_id })} />
            <Select label="Department" value={d.department_id} options={options.departments} placeholder="Leave as is" onChange={(department_id) => set({ department_id })} />
            <Select label="Location" value={d.location_id} options={options.locations} placeholder="Leave as is" onChange={(location_id) => set({ location_id })} />
          </>
        )}
        {d.kind === 'add_approval_step' && (
          <>
            <Select label="Approver" value={d.approver} options={[
              { value: 'manager', label: 'Their manager' }, { value: 'user', label: 'A specific person' }, { value: 'role', label: 'Anyone with a role' },
            ]} onChange={(v) => set({ approver: v as DraftAction['approver'] })} />
            {d.approver === 'user' && <Select label="Person" value={d.user_id} options={options.users} placeholder="Choose a person…" invalid={!!error} onChange={(user_id) => set({ user_id })} />}
            {d.approver === 'role' && <Select label="Role" value={d.role} options={roleOptions} onChange={(role) => set({ role: role as Role })} />}
          </>
        )}
        {d.kind === 'notify' && (
          <>
            <Select label="Tell" value={d.to} options={[
              { value: 'owner', label: 'The person it belongs to' }, { value: 'manager', label: 'Their manager' },
              { value: 'user', label: 'A specific person' }, { value: 'role', label: 'Everyone with a role' },
            ]} onChange={(v) => set({ to: v as DraftAction['to'] })} />
            {d.to === 'user' && <Select label="Person" value={d.user_id} options={options.users} placeholder="Choose a person…" onChange={(user_id) => set({ user_id })} />}
            {d.to === 'role' && <Select label="Role" value={d.role} options={roleOptions} onChange={(role) => set({ role: role as Role })} />}
            <Text label="Message" long value={d.text} invalid={!!error} onChange={(text) => set({ text })} />
          </>
        )}
        {d.kind === 'comment' && <Text label="Comment" long value={d.text} invalid={!!error} onChange={(text) => set({ text })} />}
      </div>
      {onRemove && <Button variant="ghost" size="sm" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>Remove</Button>}
      {error && <p className="field-error wf-row-error">{error}</p>}
    </div>
  );
}
