import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient, ReferenceData } from '../../data-access/types.ts';

export type WalletRow = ReferenceData['wallet_accounts'][number];
export type TransferRow = ReferenceData['wallet_transfers'][number];

/** The mirror's treasury rows, as shown (queued transfers and cancels applied, marked). */
export interface TreasuryMirror {
  /** null until the worker has answered the first read. */
  accounts: WalletRow[] | null;
  transfers: TransferRow[];
  /** The first mirror is still downloading (nothing shown is complete yet). */
  downloading: boolean;
  /** When this device last heard from the server (the stale mark offline). */
  lastSyncedAt: string | null;
  online: boolean;
}

/** Whether the page can reach the server now (a network and the worker's evidence). */
export const useOnline = (): boolean => useAppState((s) => s.online && (s.status?.online ?? true));

/**
 * Wallet accounts and transfers from the mirror (reference data: offline too), re-read when
 * reference data changes; the last sync time read again on every data change.
 */
export function useTreasuryMirror(): TreasuryMirror & { client: DataClient } {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const dataVersion = useAppState((s) => s.dataVersion);
  const mirrored = useAppState((s) => s.status?.mirrored ?? false);
  const online = useOnline();
  const [rows, setRows] = useState<{ accounts: WalletRow[]; transfers: TransferRow[] } | null>(null);
  const [lastSyncedAt, setLastSyncedAt] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => {
      if (live) setRows({ accounts: d.wallet_accounts, transfers: d.wallet_transfers });
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [client, version]);
  useEffect(() => {
    let live = true;
    void client.offlineData().then((d) => live && setLastSyncedAt(d.last_synced_at), () => undefined);
    return () => {
      live = false;
    };
  }, [client, dataVersion, online]);
  return { client, accounts: rows?.accounts ?? null, transfers: rows?.transfers ?? [], downloading: !mirrored, lastSyncedAt, online };
}
