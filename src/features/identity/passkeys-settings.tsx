import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useAppState, useAppStore, useDataClient } from '../../data-access/data-context.tsx';
import { sessionState } from '../../data-access/app-state.ts';
import type { ActionResult, Authenticator, DataClient } from '../../data-access/types.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SettingRow } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { TextField } from '../../components/text-field.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { createPasskey, passkeysSupported, PASSKEY_UNSUPPORTED_MESSAGE } from '../../lib/passkeys.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { useSensitiveAction } from '../../lib/use-sensitive-action.ts';

type Sensitive = ReturnType<typeof useSensitiveAction>;
type ListResult = Awaited<ReturnType<DataClient['listAuthenticators']>>;
const NAME_MAX = 64;

/** The person's authenticators (app and passkeys), loaded online; `reload` after a change. */
export function useAuthenticators() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [state, setState] = useState<{ list: Authenticator[] | null; error: string | null }>({ list: null, error: null });
  const apply = useCallback(
    (r: ListResult) =>
      setState(r.ok ? { list: r.authenticators, error: null } : { list: null, error: errorText(r.error) }),
    [],
  );
  const reload = useCallback(async () => apply(await client.listAuthenticators()), [client, apply]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.listAuthenticators().then((r) => live && apply(r));
    return () => {
      live = false;
    };
  }, [client, online, apply]);
  return { ...state, online, reload };
}

/** A failed ceremony as an ActionResult, so one error line shows every kind of failure. */
const failed = (message: string): ActionResult => ({ ok: false, error: { error_code: 'REQUEST_7001', message } });

/**
 * Settings → Security → Passkeys: the list (name, added, last used), "Add a passkey" (named),
 * rename, and remove (a sensitive action: the step-up dialog first). Adding needs a recent
 * sign-in or a step-up too: the server answers step_up and the same dialog appears.
 */
export function PasskeysSetting({ sensitive, auth }: { sensitive: Sensitive; auth: ReturnType<typeof useAuthenticators> }) {
  const passkeys = auth.list?.filter((a): a is Extract<Authenticator, { type: 'webauthn' }> => a.type === 'webauthn') ?? null;
  return (
    <SettingRow
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a code, and confirm sensitive changes the same way."
    >
      {!auth.online && <p className="muted">You are offline. Passkeys can be managed once you are back online.</p>}
      {auth.online && auth.error && (
        <div className="stack">
          <FormError message={auth.error} />
          <Button size="sm" onClick={() => void auth.reload()}>
            Try again
          </Button>
        </div>
      )}
      {auth.online && !auth.error && passkeys === null && (
        <div className="stack" role="status" aria-busy="true" aria-label="Loading passkeys">
          <Skeleton width="60%" height={16} />
          <Skeleton width="40%" height={16} />
        </div>
      )}
      {passkeys && passkeys.length === 0 && <p className="muted">You have no passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <ul className="authenticator-list" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyItem key={p.id} passkey={p} sensitive={sensitive} onChanged={auth.reload} />
          ))}
        </ul>
      )}
      {auth.online && passkeys && <AddPasskey sensitive={sensitive} onAdded={auth.reload} />}
    </SettingRow>
  );
}

function AddPasskey({ sensitive, onAdded }: { sensitive: Sensitive; onAdded: () => Promise<void> }) {
  const client = useDataClient();
  const store = useAppStore();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported = passkeysSupported();

  async function add(): Promise<ActionResult> {
    const options = await client.passkeyRegistrationOptions();
    if (!options.ok) return options;
    const created = await createPasskey(options.options);
    if (!created.ok) return failed(created.message);
    const saved = await client.registerPasskey(created.value, name.trim());
    return saved.ok ? { ok: true } : saved;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await sensitive.run(add, async (r) => {
        if (!r.ok) {
          setError(r.error.errors?.name ?? errorText(r.error));
          return;
        }
        setNaming(false);
        setName('');
        toastInfo('Passkey added. You can use it to sign in and to confirm it\'s you.');
        // The step-up prompt may now offer it.
        store.set(sessionState(await client.session()));
        await onAdded();
      });
    } finally {
      setBusy(false);
    }
  }

  if (!supported) return <p className="muted">{PASSKEY_UNSUPPORTED_MESSAGE}</p>;
  if (!naming) {
    return (
      <Button onClick={() => setNaming(true)}>
        Add a passkey
      </Button>
    );
  }
  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Add a passkey">
      <TextField
        label="Passkey name"
        value={name}
        onChange={setName}
        maxLength={NAME_MAX}
        autoFocus
        hint="So you can tell your passkeys apart, e.g. “Work laptop” or “Phone”."
      />
      <FormError message={error} />
      <div className="row-actions">
        <Button type="submit" variant="primary" loading={busy} disabled={!name.trim()}>
          Continue
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setNaming(false);
            setError(null);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

function PasskeyItem({ passkey, sensitive, onChanged }: {
  passkey: Extract<Authenticator, { type: 'webauthn' }>;
  sensitive: Sensitive;
  onChanged: () => Promise<void>;
}) {
  const client = useDataClient();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function rename(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await client.renamePasskey(passkey.id, name.trim());
    if (!r.ok) return setError(r.error.errors?.name ?? errorText(r.error));
    setRenaming(false);
    await onChanged();
  }

  /** Closes the confirmation either way: a removal parked for the step-up runs once the person confirms. */
  async function remove(): Promise<boolean> {
    setError(null);
    await sensitive.run(() => client.deletePasskey(passkey.id), async (r) => {
      if (!r.ok) return setError(errorText(r.error));
      toastInfo(`Passkey “${passkey.name}” removed.`);
      await onChanged();
    });
    return true;
  }

  return (
    <li className="authenticator">
      {renaming ? (
        <form className="stack" onSubmit={(e) => void rename(e)} noValidate aria-label={`Rename ${passkey.name}`}>
          <TextField label="Passkey name" value={name} onChange={setName} maxLength={NAME_MAX} autoFocus />
          <div className="row-actions">
            <Button type="submit" variant="primary" size="sm" disabled={!name.trim()}>
              Save
            </Button>
            <Button variant="ghost" size="sm" onClick={() => { setRenaming(false); setName(passkey.name); }}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="authenticator-text">
            <span className="authenticator-name">{passkey.name}</span>
            <span className="muted">
              Added {formatDay(passkey.created_at)} · {passkey.last_used_at ? `Last used ${formatDay(passkey.last_used_at)}` : 'Never used'}
              {passkey.backed_up ? ' · Synced' : ''}
            </span>
          </div>
          <div className="row-actions">
            <Button size="sm" variant="ghost" aria-label={`Rename ${passkey.name}`} onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Remove ${passkey.name}`} onClick={() => setRemoving(true)}>
              Remove
            </Button>
          </div>
        </>
      )}
      <FormError message={error} />
      {removing && (
        <ConfirmDialog
          title={`Remove “${passkey.name}”?`}
          description="You will no longer be able to sign in or confirm it's you with this passkey."
          confirmLabel="Remove passkey"
          tone="danger"
          onClose={() => setRemoving(false)}
          onConfirm={remove}
        />
      )}
    </li>
  );
}
