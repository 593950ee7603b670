import { useState, type FormEvent } from 'react';
import { API_RESOURCE_LABELS, API_RESOURCES, type ApiResource, type ApiScope } from '../../../schema/api/api-scopes.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { TextField } from '../../components/text-field.tsx';
import { toastError, toastInfo } from '../../lib/toast-store.ts';

export type NewClientForm = { name: string; scopes: ApiScope[]; rate_limit_per_minute: number; expires_at: string | null };

const DEFAULT_RATE = 600;

/**
 * "Create API client": a name, the scopes as read/write checkboxes per resource, the rate limit
 * and an optional expiry. The caller sends it (a sensitive call: it may ask for a step-up first).
 */
/** The scopes chosen in a form (API clients, developer applications): `transactions:read` to start; toggle adds or takes one away. */
export function useScopeChoice(): [ReadonlySet<ApiScope>, (scope: ApiScope) => void] {
  const [scopes, setScopes] = useState<ReadonlySet<ApiScope>>(new Set(['transactions:read']));
  const toggle = (scope: ApiScope) => setScopes((s) => {
    const next = new Set(s);
    if (next.has(scope)) next.delete(scope);
    else next.add(scope);
    return next;
  });
  return [scopes, toggle];
}

export function CreateClientDialog({ busy, error, onCancel, onCreate }: {
  busy: boolean; error: string | null; onCancel(): void; onCreate(form: NewClientForm): void;
}) {
  const [name, setName] = useState('');
  const [scopes, toggle] = useScopeChoice();
  const [rate, setRate] = useState(String(DEFAULT_RATE));
  const [expires, setExpires] = useState('');
  const [problem, setProblem] = useState<string | null>(null);


  function submit(e: FormEvent) {
    e.preventDefault();
    const limit = Number(rate);
    if (!name.trim()) return setProblem('Give the client a name, such as the tool that will use it.');
    if (scopes.size === 0) return setProblem('Choose at least one scope.');
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return setProblem('The rate limit is a whole number from 1 to 10,000 requests a minute.');
    setProblem(null);
    onCreate({
      name: name.trim(), scopes: API_RESOURCES.flatMap((r) => (['read', 'write'] as const).map((a) => `${r}:${a}` as const)).filter((s) => scopes.has(s)),
      rate_limit_per_minute: limit, expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
  }

  return (
    <Modal title="Create API client" description="The client acts with your access, narrowed to the scopes you choose." onClose={onCancel} onSubmit={submit} size="lg">
      <TextField label="Name" value={name} onChange={setName} maxLength={80} autoFocus required hint="For example “Data warehouse sync”." />
      <fieldset className="plain-fieldset api-scopes">
        <legend>Scopes</legend>
        <div className="api-scope-grid" role="presentation">
          {API_RESOURCES.map((r) => <ScopeRow key={r} resource={r} scopes={scopes} onToggle={toggle} />)}
        </div>
      </fieldset>
      <div className="api-client-limits">
        <label className="field">
          <span className="field-label">Rate limit (requests a minute)</span>
          <input type="number" inputMode="numeric" min={1} max={10000} value={rate} onChange={(e) => setRate(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Expires (optional)</span>
          <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
      </div>
      <FormError message={problem ?? error} />
      <ModalActions submitLabel="Create client" busy={busy} onCancel={onCancel} />
    </Modal>
  );
}

export function ScopeRow({ resource, scopes, onToggle }: { resource: ApiResource; scopes: ReadonlySet<ApiScope>; onToggle(s: ApiScope): void }) {
  const { label, covers } = API_RESOURCE_LABELS[resource];
  return (
    <div className="api-scope-row">
      <div>
        <span className="api-scope-name">{label}</span>
        <span className="muted api-scope-covers">{covers}</span>
      </div>
      {(['read', 'write'] as const).map((access) => {
        const scope = `${resource}:${access}` as const;
        return (
          <label key={access} className="check api-scope-check">
            <input type="checkbox" checked={scopes.has(scope)} onChange={() => onToggle(scope)} />
            <span>{access === 'read' ? 'Read' : 'Write'}<span className="sr-only"> {label.toLowerCase()}</span></span>
          </label>
        );
      })}
    </div>
  );
}

async function copy(text: string, what: string) {
  const ok = await navigator.clipboard?.writeText(text).then(() => true, () => false);
  if (ok) toastInfo(`${what} copied.`);
  else toastError(`Couldn’t copy the ${what.toLowerCase()}: select it and copy it yourself.`);
}

/** The secret, shown this once: Copy, and the warning that it cannot be shown again. */
export function SecretDialog({ clientId, clientName, secret, onDone }: { clientId: string; clientName: string; secret: string; onDone(): void }) {
  return (
    <Modal title="Copy the client secret" description={`For ${clientName}. This is the only time it is shown.`} onClose={onDone}>
      <div className="notice notice-warn" role="note">
        Store the secret somewhere safe now, such as your secrets manager. When you close this dialog it is gone for good;
        if it is lost, create a new secret and revoke this one.
      </div>
      <dl className="api-secret-values">
        <dt>Client ID</dt>
        <dd><code data-testid="api-client-id">{clientId}</code> <Button size="sm" onClick={() => void copy(clientId, 'Client ID')}>Copy<span className="sr-only"> client ID</span></Button></dd>
        <dt>Client secret</dt>
        <dd><code data-testid="api-client-secret">{secret}</code> <Button size="sm" variant="primary" onClick={() => void copy(secret, 'Client secret')}>Copy<span className="sr-only"> client secret</span></Button></dd>
      </dl>
      <div className="modal-actions">
        <Button variant="primary" onClick={onDone}>I’ve stored it</Button>
      </div>
    </Modal>
  );
}
