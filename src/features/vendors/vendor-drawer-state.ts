import { useEffect, useRef, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import type { DataClient, RevealedBankAccount, VendorResult } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useSensitiveAction } from '../../lib/use-sensitive-action.ts';

/** How long revealed numbers stay on screen: long enough to copy, short enough for a shoulder. */
export const REVEAL_MS = 30_000;

export type VendorDrawerState = ReturnType<typeof useVendorDrawer>;

/**
 * The drawer's state: revealed numbers (for this vendor and bank account only, hidden again after
 * REVEAL_MS), the refusal shown (for this vendor), the action running, and the two actions:
 * reveal through the step-up, archive or unarchive.
 */
export function useVendorDrawer({ vendor, client, onAnswer }: { vendor: Vendor | null; client: DataClient; onAnswer(vendor: Vendor): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const sensitive = useSensitiveAction();
  // Both belong to one vendor and one bank account: opening another, or a new account, drops them.
  const [reveal_, setRevealed] = useState<{ key: string; bank: RevealedBankAccount } | null>(null);
  const [error_, setErrorFor] = useState<{ id: string; message: string } | null>(null);
  const [busy, setBusy] = useState<'reveal' | 'archive' | null>(null);
  const [settingBank, setSettingBank] = useState(false);
  const id = vendor?.id;
  const bankKey = `${id}|${vendor?.bank_account?.last_four ?? ''}|${vendor?.bank_account?.routing_last_four ?? ''}`;
  const revealed = reveal_ && reveal_.key === bankKey ? reveal_.bank : null;
  const error = error_ && error_.id === id ? error_.message : null;
  const setError = (message: string | null) => setErrorFor(message && id ? { id, message } : null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);
  useEffect(() => {
    if (!reveal_) return;
    const t = setTimeout(() => setRevealed(null), REVEAL_MS);
    return () => clearTimeout(t);
  }, [reveal_]);

  async function reveal(v: Vendor) {
    setError(null);
    setBusy('reveal');
    await sensitive.run(
      async () => {
        const r = await client.revealVendorBankAccount(v.id);
        if (r.ok) setRevealed({ key: bankKey, bank: r.bank });
        return r.ok ? { ok: true } : r;
      },
      (r) => {
        if (!r.ok) setError(errorText(r.error));
      },
    );
    setBusy(null);
  }

  async function setStatus(v: Vendor, status: Vendor['status']) {
    setError(null);
    setBusy('archive');
    const r: VendorResult = await client.updateVendor(v.id, { status });
    setBusy(null);
    if (!r.ok) return setError(errorText(r.error));
    onAnswer(r.vendor);
    toastInfo(status === 'ARCHIVED' ? `${v.name} archived.` : `${v.name} is active again.`);
  }

  return {
    heading, sensitive, revealed, hide: () => setRevealed(null), error, busy, settingBank, setSettingBank, reveal, setStatus,
  };
}
