import { useCallback, useState } from 'react';
import type { EntityCashAccount, LinkedBankAccount } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';

export interface CashAccountChoices {
  entities: readonly { id: string; name: string }[];
  banks: readonly LinkedBankAccount[];
  wallets: readonly { id: string; name: string; currency: string }[];
  glAccounts: readonly { id: string; code: string; name: string }[];
}

type Draft = Pick<EntityCashAccount, 'bank_account_id' | 'wallet_account_id' | 'gl_account_id'>;
const NONE: SelectOption = { value: '', label: 'None' };
const blank: Draft = { bank_account_id: null, wallet_account_id: null, gl_account_id: null };

/**
 * Each entity's cash account (online): which linked bank account or wallet account its money is
 * in, and the GL account it is booked to. One row per entity, saved on its own.
 */
export function EntityCashAccounts({ client, online, choices }: { client: DataClient; online: boolean; choices: CashAccountChoices }) {
  const { list, reload } = useOnlineList(online, 'entity-cash', useCallback(async () => {
    const r = await client.entityCashAccounts();
    return r.ok ? { ok: true as const, rows: r.cash_accounts } : r;
  }, [client]));
  if (choices.entities.length === 0) return <p className="muted">This business has no entities: its cash is the business’s own.</p>;
  if (list.state === 'offline') return <p className="muted">Connect to see and change each entity’s cash account.</p>;
  if (list.state === 'loading') return <p className="muted" role="status">Loading cash accounts…</p>;
  if (list.state === 'error') return <FormError message={list.message} />;
  const byEntity = new Map(list.rows.map((r) => [r.entity_id, r]));
  return (
    <ul className="bank-entity-list">
      {choices.entities.map((e) => (
        <EntityCashRow key={`${e.id}:${byEntity.get(e.id)?.updated_at ?? ''}`} client={client} entity={e} saved={byEntity.get(e.id) ?? null} choices={choices} onSaved={reload} />
      ))}
    </ul>
  );
}

export function EntityCashRow({ client, entity, saved, choices, onSaved }: {
  client: DataClient; entity: { id: string; name: string }; saved: EntityCashAccount | null; choices: CashAccountChoices; onSaved(): void;
}) {
  const start: Draft = saved ? { bank_account_id: saved.bank_account_id, wallet_account_id: saved.wallet_account_id, gl_account_id: saved.gl_account_id } : blank;
  const [draft, setDraft] = useState<Draft>(start);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const changed = draft.bank_account_id !== start.bank_account_id || draft.wallet_account_id !== start.wallet_account_id || draft.gl_account_id !== start.gl_account_id;
  async function save() {
    setBusy(true);
    setError(null);
    const r = await client.saveEntityCashAccount(entity.id, draft);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    toastInfo(`${entity.name}’s cash account saved.`);
    onSaved();
  }
  return (
    <li className="bank-entity" aria-label={entity.name}>
      <h3 className="bank-entity-name">{entity.name}</h3>
      <div className="bank-entity-fields">
        <SelectField label="Bank account" value={draft.bank_account_id ?? ''} leading={[NONE]}
          options={choices.banks.map((b) => ({ value: b.id, label: `${b.name} ${b.account_number_masked}` }))}
          onChange={(v) => setDraft((d) => ({ ...d, bank_account_id: v || null }))} />
        <SelectField label="Wallet account" value={draft.wallet_account_id ?? ''} leading={[NONE]}
          options={choices.wallets.map((w) => ({ value: w.id, label: `${w.name} (${w.currency})` }))}
          onChange={(v) => setDraft((d) => ({ ...d, wallet_account_id: v || null }))} />
        <SelectField label="GL account" value={draft.gl_account_id ?? ''} leading={[NONE]}
          options={choices.glAccounts.map((g) => ({ value: g.id, label: `${g.code} · ${g.name}` }))}
          onChange={(v) => setDraft((d) => ({ ...d, gl_account_id: v || null }))} />
        <Button size="sm" variant="secondary" disabled={!changed} loading={busy} onClick={() => void save()}>
          Save<span className="sr-only"> {entity.name}’s cash account</span>
        </Button>
      </div>
      <FormError message={error} />
    </li>
  );
}
