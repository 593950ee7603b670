import { useEffect, useState } from 'react';
import { COMMON_MERCHANT_CATEGORIES, normalizeBlockedCategories } from '../../../schema/card-rules.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';

const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(normalizeBlockedCategories(a)) === JSON.stringify(normalizeBlockedCategories(b));
const has = (list: readonly string[], c: string) => list.some((x) => x.toLowerCase() === c.trim().toLowerCase());

/** What saving changes, in words for the confirmation. */
export function restrictionChange(saved: readonly string[], next: readonly string[]): string {
  const added = next.filter((c) => !has(saved, c));
  const lifted = saved.filter((c) => !has(next, c));
  const parts = [
    added.length > 0 ? `Every card will be declined at ${added.join(', ')}.` : '',
    lifted.length > 0 ? `Cards can be used at ${lifted.join(', ')} again, where each card allows it.` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * Issue 29, Settings → "Merchant restrictions" (admins): the merchant categories no card of the
 * business can be used at (`PUT /v1/auth/businesses/merchant-restrictions`; a declined purchase
 * names the business rule). A multi-select of the common categories plus any typed one; saving
 * asks first, since it changes what every card can buy. Online only, and says so.
 */
export function MerchantRestrictionsSection() {
  const client = useDataClient();
  const user = useAppState((s) => s.session?.user ?? null);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const admin = !!user && isAdmin(user);
  const [saved, setSaved] = useState<string[] | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [other, setOther] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (!admin || !online) return;
    let live = true;
    void client.merchantRestrictions().then((r) => {
      if (!live) return;
      if (!r.ok) return setError(errorText(r.error));
      setSaved(r.restrictions.blocked_merchant_categories);
      setPicked(r.restrictions.blocked_merchant_categories);
    });
    return () => {
      live = false;
    };
  }, [client, admin, online]);

  if (!admin) return null;
  const options = normalizeBlockedCategories([...COMMON_MERCHANT_CATEGORIES, ...(saved ?? []), ...picked]);
  const toggle = (c: string, on: boolean) => setPicked(on ? [...picked, c] : picked.filter((x) => x.toLowerCase() !== c.toLowerCase()));
  const addOther = () => {
    const c = other.trim();
    if (!c) return;
    if (c.length > 60) return setError('A category name is at most 60 characters.');
    if (!has(picked, c)) setPicked([...picked, c]);
    setOther('');
    setError(null);
  };
  const dirty = saved !== null && !same(saved, picked);

  async function save() {
    const r = await client.setMerchantRestrictions(normalizeBlockedCategories(picked));
    if (!r.ok) return setError(errorText(r.error)), true;
    setSaved(r.restrictions.blocked_merchant_categories);
    setPicked(r.restrictions.blocked_merchant_categories);
    setError(null);
    toastInfo(r.restrictions.blocked_merchant_categories.length === 0 ? 'No merchant category is blocked now.' : 'Merchant restrictions saved. They apply to every card at once.');
    return true;
  }

  return (
    <Section title="Merchant restrictions" description="Merchant categories no card of the business can be used at, whatever each card allows. A declined purchase says it was the business’s rule.">
      {!online && <p className="notice notice-warn" role="note">You’re offline. Merchant restrictions need a connection to be read or changed.</p>}
      <FormError message={error} />
      {online && saved === null && !error && <p className="muted" aria-live="polite">Loading the business’s restrictions…</p>}
      {saved !== null && (
        <div className="merchant-restrictions">
          <fieldset className="plain-fieldset" disabled={!online}>
            <legend className="claim-section-title">Blocked categories ({picked.length})</legend>
            <div className="merchant-restriction-options">
              {options.map((c) => (
                <label key={c} className="check">
                  <input type="checkbox" checked={has(picked, c)} onChange={(e) => toggle(c, e.target.checked)} />
                  {c}
                </label>
              ))}
            </div>
          </fieldset>
          {/* Its own form: Enter adds the typed category, never saves. */}
          <form className="merchant-restriction-other" onSubmit={(e) => { e.preventDefault(); addOther(); }}>
            <TextField label="Another category" value={other} onChange={setOther} maxLength={60} disabled={!online} />
            <Button type="submit" size="sm" disabled={!online || !other.trim()}>Add</Button>
          </form>
          <div className="person-form-actions">
            <Button variant="primary" disabled={!online || !dirty} onClick={() => setAsking(true)}>Save restrictions</Button>
            {dirty && <Button variant="ghost" onClick={() => setPicked(saved)}>Reset</Button>}
          </div>
        </div>
      )}
      {asking && saved !== null && (
        <ConfirmDialog title="Change what every card can buy?" confirmLabel="Save restrictions" tone="danger"
          description={restrictionChange(saved, picked)} onClose={() => setAsking(false)} onConfirm={save} />
      )}
    </Section>
  );
}
