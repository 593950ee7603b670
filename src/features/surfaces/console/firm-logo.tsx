import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { keep, kept } from './console-cache.ts';

/** Said when Settings changes the logo, so the shell's header shows the new one. */
const LOGO_CHANGED = 'ledgerline:firm-logo';
const announce = () => window.dispatchEvent(new Event(LOGO_CHANGED));

/** What the server takes (firm.logo.put; it checks the bytes too). */
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export const LOGO_MAX_BYTES = 512 * 1024;

/** Why a chosen file cannot be the logo, or null. */
export function logoFileProblem(file: { type: string; size: number }): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'Choose a PNG or JPEG image.';
  if (file.size > LOGO_MAX_BYTES) return `This image is ${Math.ceil(file.size / 1024)} KB: the logo can be at most 512 KB.`;
  return null;
}

/**
 * The firm's logo as an object URL (null for none, or while unread), kept on this device so the
 * header shows it offline too; read again when Settings changes it.
 */
export function useFirmLogo(enabled = true): string | null {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const [url, setUrl] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    window.addEventListener(LOGO_CHANGED, bump);
    return () => window.removeEventListener(LOGO_CHANGED, bump);
  }, []);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    let made: string | null = null;
    void (async () => {
      const r = await client.consoleLogo();
      let file: Blob | null;
      if (r.ok) {
        file = r.file;
        void keep(identityId, 'logo', file);
      } else {
        file = (await kept<Blob | null>(identityId, 'logo'))?.value ?? null;
      }
      if (!live) return;
      made = file ? URL.createObjectURL(file) : null;
      setUrl(made);
    })();
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [client, identityId, enabled, version]);
  return url;
}

/** The logo in the console's header, when the firm has one. */
export function HeaderLogo({ firmName }: { firmName: string }) {
  const url = useFirmLogo();
  return url ? <img className="surface-logo" src={url} alt={`${firmName} logo`} height={28} style={{ width: 'auto', maxWidth: 120, objectFit: 'contain' }} /> : null;
}

/**
 * Settings → Logo: the current logo; admins choose a PNG or JPEG ≤ 512 KB, see it before saving,
 * and remove it (asked first). Members see it only. Changes need a connection.
 */
export function LogoSection({ firmName, admin, online }: { firmName: string; admin: boolean; online: boolean }) {
  const client = useDataClient();
  const current = useFirmLogo();
  const picker = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState(false);
  useEffect(() => () => {
    if (chosen) URL.revokeObjectURL(chosen.url);
  }, [chosen]);

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    setNote(null);
    if (!file) return;
    const problem = logoFileProblem(file);
    setError(problem);
    setChosen(problem ? null : { file, url: URL.createObjectURL(file) });
  }
  async function save() {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    const r = await client.consolePutLogo(chosen.file);
    setBusy(false);
    if (!r.ok) {
      setError(errorText(r.error));
      return;
    }
    setChosen(null);
    setNote('Logo saved. It shows in the console’s header.');
    announce();
  }

  const shown = chosen?.url ?? current;
  return (
    <section className="console-section" aria-labelledby="firm-logo">
      <h2 id="firm-logo">Logo</h2>
      <p className="muted">
        {admin ? 'Shown in the console’s header for everyone at your firm. PNG or JPEG, at most 512 KB.' : 'Shown in the console’s header. Your firm’s admins change it.'}
      </p>
      <div className="console-row console-logo">
        {shown ? (
          <img src={shown} alt={chosen ? 'Preview of the new logo' : `${firmName} logo`} className="console-logo-image" />
        ) : (
          <p className="muted console-row-main">No logo yet{admin ? ': the header shows your firm’s name only.' : '.'}</p>
        )}
        {admin && (
          <div className="console-row-actions">
            {chosen ? (
              <>
                <Button size="sm" variant="primary" loading={busy} disabled={!online} onClick={() => void save()}>
                  Save logo
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setChosen(null)}>
                  Cancel
                </Button>
              </>
            ) : (
              <>
                <Button size="sm" disabled={!online} onClick={() => picker.current?.click()}>
                  {current ? 'Replace logo…' : 'Upload logo…'}
                </Button>
                <input ref={picker} type="file" accept={LOGO_TYPES.join(',')} hidden aria-label="Logo image" onChange={choose} />
                {current && (
                  <Button size="sm" variant="ghost" disabled={!online} onClick={() => setRemoving(true)}>
                    Remove logo
                  </Button>
                )}
              </>
            )}
          </div>
        )}
      </div>
      {admin && !online && <p className="muted">Changing the logo needs a connection.</p>}
      {note && <p className="notice" role="status">{note}</p>}
      <FormError message={error} />
      {removing && (
        <DeleteDialog
          title="Remove your firm’s logo?"
          description="The console’s header shows your firm’s name only, for everyone at your firm. You can upload a logo again later."
          confirmLabel="Remove logo"
          onClose={() => setRemoving(false)}
          onDelete={async () => {
            const r = await client.consoleRemoveLogo();
            if (!r.ok) return r.error;
            setNote('Logo removed.');
            announce();
            return null;
          }}
        />
      )}
    </section>
  );
}
