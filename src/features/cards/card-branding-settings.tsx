import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { CARD_LOGO_CONTENT_TYPES, CARD_LOGO_MAX_BYTES, DEFAULT_CARD_COLOR, type CardBranding } from '../../../schema/card-branding.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { refreshCardBranding, useCardBranding } from './use-card-branding.ts';

/** A logo refused before sending (the server checks the bytes and pixel size again), or null. */
export function logoFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(CARD_LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'Choose a PNG or JPEG image. SVG and other formats are not accepted.';
  if (file.size > CARD_LOGO_MAX_BYTES) return `The logo is larger than ${CARD_LOGO_MAX_BYTES / 1024} KB. Export it smaller and try again.`;
  if (file.size === 0) return 'The file is empty.';
  return null;
}

/**
 * Issue 32, Settings → "Card branding" (owners and admins): the colour and logo every active
 * virtual card wears (`/businesses/card-branding`). Removing both asks first. Online only.
 */
export function CardBrandingSection() {
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const look = useCardBranding();
  const admin = !!user && isAdmin(user);
  const colorId = useId();
  const logoId = useId();
  const [branding, setBranding] = useState<CardBranding | null>(null);
  const [color, setColor] = useState(DEFAULT_CARD_COLOR);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'color' | 'logo' | null>(null);
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (!admin || !online) return;
    let live = true;
    void client.cardBranding().then((r) => {
      if (!live) return;
      if (!r.ok) return setError(errorText(r.error));
      setBranding(r.branding);
      setColor(r.branding.color ?? DEFAULT_CARD_COLOR);
    });
    return () => {
      live = false;
    };
  }, [client, admin, online]);

  if (!admin) return null;

  async function done(r: Awaited<ReturnType<typeof client.saveCardColor>>, message: string) {
    setBusy(null);
    if (!r.ok) return setError(errorText(r.error)), false;
    setBranding(r.branding);
    setColor(r.branding.color ?? DEFAULT_CARD_COLOR);
    setError(null);
    toastInfo(message);
    await refreshCardBranding(client);
    return true;
  }
  async function saveColor() {
    setBusy('color');
    await done(await client.saveCardColor(color), 'Card colour saved. Virtual cards show it now.');
  }
  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) return setError(problem);
    setBusy('logo');
    await done(await client.uploadCardLogo(file), 'Logo uploaded. Virtual cards show it now.');
  }

  return (
    <Section title="Card branding" description="Your logo and colour on the business’s active virtual cards. Physical cards keep the standard design.">
      {!online && <p className="notice notice-warn" role="note">You’re offline. Card branding needs a connection to be read or changed.</p>}
      <FormError message={error} />
      {online && branding === null && !error && <p className="muted" aria-live="polite">Loading the card branding…</p>}
      {branding && (
        <div className="card-branding-form">
          <div className="card-branding-row">
            <label htmlFor={colorId}>Card colour</label>
            <input id={colorId} type="color" value={color} onChange={(e) => setColor(e.target.value)} disabled={!online} />
            <code>{color}</code>
            <Button size="sm" loading={busy === 'color'} disabled={!online || color === branding.color} onClick={() => void saveColor()}>Save colour</Button>
          </div>
          <div className="card-branding-row">
            <label htmlFor={logoId}>Logo (PNG or JPEG, up to {CARD_LOGO_MAX_BYTES / 1024} KB)</label>
            <input id={logoId} type="file" accept={CARD_LOGO_CONTENT_TYPES.join(',')} onChange={(e) => void upload(e)} disabled={!online || busy === 'logo'} />
            {branding.logo && look.logoUrl && <img className="card-branding-logo" src={look.logoUrl} alt="The current card logo" />}
          </div>
          {(branding.color || branding.logo) && (
            <div className="person-form-actions">
              <Button variant="danger" size="sm" disabled={!online} onClick={() => setAsking(true)}>Remove branding…</Button>
            </div>
          )}
        </div>
      )}
      {asking && (
        <ConfirmDialog title="Remove the card branding?" tone="danger" confirmLabel="Remove branding"
          description="The logo and colour leave every virtual card; they go back to the standard design."
          onClose={() => setAsking(false)} onConfirm={async () => done(await client.removeCardBranding(), 'Card branding removed.')} />
      )}
    </Section>
  );
}
