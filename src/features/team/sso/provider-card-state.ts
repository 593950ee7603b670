import { useState } from 'react';
import type { SsoProvider } from '../../../../schema/api/calls-sso.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import type { ProviderAction } from './sso-forms.ts';

export type ProviderDialog = null | 'setup' | 'replace' | 'enforce' | 'delete';
export type ProviderCardState = ReturnType<typeof useProviderCard>;

/**
 * One provider card's state: the dialog open, the action running and the refusal said beside it;
 * `update` answers the refusal in words (the enforce dialog keeps it), `act` shows it on the card.
 */
export function useProviderCard(client: DataClient, p: SsoProvider, onChanged: (next: SsoProvider | null) => void) {
  const [dialog, setDialog] = useState<ProviderDialog>(null);
  const [busy, setBusy] = useState<ProviderAction | null>(null);
  const [refusal, setRefusal] = useState<{ action: ProviderAction; message: string } | null>(null);

  async function update(action: ProviderAction, patch: { enabled?: boolean; enforced?: boolean }, done: string): Promise<string | null> {
    setBusy(action);
    setRefusal(null);
    try {
      const r = await client.updateSsoProvider(p.id, patch);
      if (!r.ok) return errorText(r.error);
      toastInfo(done);
      onChanged(r.provider);
      return null;
    } finally {
      setBusy(null);
    }
  }
  const act = async (action: ProviderAction, patch: { enabled?: boolean; enforced?: boolean }, done: string) => {
    const failure = await update(action, patch, done);
    if (failure) setRefusal({ action, message: failure });
  };

  return { dialog, setDialog, busy, refusal, setRefusal, update, act };
}
