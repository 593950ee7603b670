import { useCallback, useEffect, useState } from 'react';
import type { LinkedBankAccount } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';

/**
 * The bank list as the page shows it: `ready` with `cachedAt` when it is the last answer the
 * worker kept (offline: shown marked with when it was read), `offline` when nothing was kept,
 * `error` in the server's words. Read on open, when the connection changes, and on `reload()`.
 */
export type BankList =
  | { state: 'loading' }
  | { state: 'offline' }
  | { state: 'error'; message: string }
  | { state: 'ready'; accounts: LinkedBankAccount[]; cachedAt: string | null };

export function useBankAccounts(client: DataClient, online: boolean): { list: BankList; reload(): void } {
  const [turn, setTurn] = useState(0);
  const [list, setList] = useState<BankList>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void client.bankAccounts().then(
      (r) => {
        if (!live) return;
        if (r.ok) setList({ state: 'ready', accounts: r.accounts, cachedAt: r.cached_at });
        else setList('offline' in r && r.offline ? { state: 'offline' } : { state: 'error', message: errorText(r.error) });
      },
      (err: unknown) => live && setList({ state: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [client, online, turn]);
  const reload = useCallback(() => setTurn((n) => n + 1), []);
  return { list, reload };
}
