import { useState } from 'react';
import type { MappingRule } from '../../../schema/mapping-rules.ts';
import { Button } from '../../components/button.tsx';
import { Combobox } from '../../components/combobox.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { errorText } from '../../lib/error-text.ts';
import { callThen } from '../../lib/forms/call-then.ts';
import { useCheckedSubmit, withoutErrors } from '../../lib/forms/use-checked-submit.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { DeleteDialog } from '../../components/confirm-dialog.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import {
  emptyRuleForm, MATCH_FIELD_LABELS, ruleCoding, ruleCondition, ruleFormOf, ruleInput,
  type RuleFieldErrors, type RuleFormValues, type RuleNames,
} from './accounting-forms.ts';
import { useMappingRules, type MappingRulesSectionProps } from './use-mapping-rules.ts';

const NONE: SelectOption = { value: '', label: 'None' };
const FIELD_OPTIONS: SelectOption[] = Object.entries(MATCH_FIELD_LABELS).map(([value, label]) => ({ value, label }));
const OPERATOR_OPTIONS: SelectOption[] = [
  { value: 'contains', label: 'contains' },
  { value: 'equals', label: 'is exactly' },
];

/**
 * Mapping rules (schema/mapping-rules.ts): "merchant, merchant category or vendor → GL account /
 * department / tracking", tried in priority order (the first match wins). They suggest coding for
 * new items; "Apply rules to uncoded transactions" codes every uncoded, unsynced one now.
 */
export function MappingRulesSection(props: MappingRulesSectionProps) {
  const { client, online, reference, vendorOptions } = props;
  const { list, reload, rules, names, editing, setEditing, deleting, setDeleting, applying, applied, apply } = useMappingRules(props);

  const newRule = (
    <Button disabled={!online} onClick={() => setEditing('new')}>
      New rule
    </Button>
  );
  return (
    <Section
      title="Mapping rules"
      description="Rules code spend from its merchant, merchant category or vendor. They are tried from the top; the first that matches sets its coding."
      actions={
        <span className="accounting-actions">
          <Button disabled={!online || rules.length === 0} loading={applying} onClick={() => void apply()}>
            Apply rules to uncoded transactions
          </Button>
          {newRule}
        </span>
      }
    >
      <div aria-live="polite">
        {applied && (
          <p className={applied.tone === 'error' ? 'notice notice-error' : 'notice'} data-testid="apply-result">
            {applied.text}
          </p>
        )}
      </div>
      <ListStatus list={list} what="Mapping rules" offlineBody="Mapping rules are kept on the server; they can be read and changed when you are back online." online={online} onRetry={reload} />
      {list.state === 'ready' && rules.length === 0 && (
        <EmptyState title="No mapping rules yet" level="text" action={newRule}>
          For example: merchant name contains “Uber” → GL account Travel. Applying rules codes only transactions with no GL account, and never a synced one.
        </EmptyState>
      )}
      {rules.length > 0 && <RulesTable rules={rules} names={names} online={online} onEdit={setEditing} onDelete={setDeleting} />}
      {editing && (
        <RuleDialog
          rule={editing === 'new' ? null : editing}
          reference={reference}
          vendorOptions={vendorOptions}
          onClose={() => setEditing(null)}
          onSave={async (body) => {
            const r = editing === 'new' ? await client.createMappingRule(body) : await client.replaceMappingRule(editing.id, body);
            if (!r.ok) return errorText(r.error);
            toastInfo(editing === 'new' ? 'Rule added.' : 'Rule saved.');
            setEditing(null);
            reload();
            return null;
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          title="Delete this rule?"
          description={`“${ruleCondition(deleting, names)}” stops coding new spend. What it already coded stays coded.`}
          confirmLabel="Delete rule"
          onClose={() => setDeleting(null)}
          onDelete={callThen(() => client.deleteMappingRule(deleting.id), () => {
            toastInfo('Rule deleted.');
            reload();
          })}
        />
      )}
    </Section>
  );
}

/** The rules in the order they are tried, each with Edit and Delete. */
function RulesTable({ rules, names, online, onEdit, onDelete }: {
  rules: readonly MappingRule[]; names: RuleNames; online: boolean; onEdit(rule: MappingRule): void; onDelete(rule: MappingRule): void;
}) {
  return (
    <div className="extras-table-wrap">
      <table className="extras-table accounting-rules">
        <caption className="sr-only">Mapping rules, in the order they are tried</caption>
        <thead>
          <tr>
            <th scope="col" className="num">Order</th>
            <th scope="col">When</th>
            <th scope="col">Then set</th>
            <th scope="col"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r, i) => {
            const condition = ruleCondition(r, names);
            return (
              <tr key={r.id} data-testid="rule-row">
                <td className="num">
                  {i + 1}
                  <span className="extras-sub muted">priority {r.priority}</span>
                </td>
                <th scope="row">{condition}</th>
                <td>{ruleCoding(r, names)}</td>
                <td className="extras-actions">
                  <Button size="sm" disabled={!online} onClick={() => onEdit(r)}>
                    Edit <span className="sr-only">rule {condition}</span>
                  </Button>
                  <Button size="sm" variant="ghost" disabled={!online} onClick={() => onDelete(r)}>
                    Delete <span className="sr-only">rule {condition}</span>
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface RuleDialogProps {
  rule: MappingRule | null;
  reference: ReferenceView;
  vendorOptions: readonly SelectOption[];
  onClose(): void;
  /** The server's refusal in words, or null once saved. */
  onSave(body: Extract<ReturnType<typeof ruleInput>, { ok: true }>['body']): Promise<string | null>;
}

/** New or edit: the condition (field, operator, text or vendor), the coding it sets, and its place in the order. */
function RuleDialog({ rule, reference, vendorOptions, onClose, onSave }: RuleDialogProps) {
  const [values, setValues] = useState<RuleFormValues>(() => (rule ? ruleFormOf(rule) : emptyRuleForm()));
  const { errors, setErrors, formError, busy, submit } = useCheckedSubmit(() => ruleInput(values), onSave);
  const set = (patch: Partial<RuleFormValues>, ...cleared: (keyof RuleFieldErrors)[]) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => withoutErrors(e, cleared));
  };
  const isVendor = values.match_field === 'vendor';

  return (
    <Modal title={rule ? 'Edit mapping rule' : 'New mapping rule'} onClose={onClose} onSubmit={submit} size="lg"
      description="When an item matches, the rule sets the coding you choose; fields left at None are not touched.">
      <FormError message={formError} />
      <div className="modal-fields accounting-rule-fields">
        <SelectField label="Match on" value={values.match_field} options={FIELD_OPTIONS}
          onChange={(v) => set({ match_field: v as RuleFormValues['match_field'], match_value: '' }, 'match_value')} />
        {isVendor ? (
          <div className="accounting-rule-value">
            <Combobox label="Vendor" value={values.match_value} options={vendorOptions} onChange={(v) => set({ match_value: v }, 'match_value')} />
            {errors.match_value && <p className="field-error">{errors.match_value}</p>}
          </div>
        ) : (
          <>
            <SelectField label="Condition" value={values.match_operator} options={OPERATOR_OPTIONS}
              onChange={(v) => set({ match_operator: v as RuleFormValues['match_operator'] })} />
            <TextField field="match_value" label="Text" value={values.match_value} maxLength={200} autoComplete="off" error={errors.match_value}
              hint="Compared without regard to case or extra spaces." onChange={(v) => set({ match_value: v }, 'match_value')} />
          </>
        )}
        <div className="accounting-rule-value">
          <Combobox label="GL account" value={values.gl_account_id} options={reference.options.glAccounts} leading={[NONE]}
            onChange={(v) => set({ gl_account_id: v }, 'gl_account_id')} />
          {errors.gl_account_id && <p className="field-error">{errors.gl_account_id}</p>}
        </div>
        <Combobox label="Department" value={values.department_id} options={reference.options.departments} leading={[NONE]}
          onChange={(v) => set({ department_id: v }, 'gl_account_id')} />
        {reference.data.tracking_categories.map((cat) => (
          <Combobox key={cat.id} label={cat.name} value={values.tracking[cat.id] ?? ''} leading={[NONE]}
            options={cat.options.map((o) => ({ value: o.id, label: o.name }))}
            onChange={(v) => set({ tracking: { ...values.tracking, [cat.id]: v } }, 'gl_account_id')} />
        ))}
        <TextField field="priority" label="Priority" value={values.priority} maxLength={7} autoComplete="off" error={errors.priority}
          hint={rule ? 'Lower runs first.' : 'Lower runs first; leave empty to try this rule after every other.'}
          onChange={(v) => set({ priority: v }, 'priority')} />
      </div>
      <ModalActions submitLabel={rule ? 'Save rule' : 'Add rule'} busy={busy} onCancel={onClose} />
    </Modal>
  );
}
