import { useEffect, useRef, useState } from 'react';
import type { CommandInput, CommandName } from '../../../schema/commands/index.ts';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import type { ClaimView } from './claim-labels.ts';
import { readClaim, type ClaimOwner } from './use-claim-rows.ts';

/**
 * The claim drawer's state: the claim as shown (`undefined` while it is read, `null` when there
 * is none), read again on every data change; the heading focused when another claim opens; and
 * `run`, one claim command through the worker (offline too), `busy` with its name meanwhile.
 */
export function useClaimDrawer(client: DataClient, id: string, dataVersion: number, owner: ClaimOwner) {
  const [claim, setClaim] = useState<ClaimView | null | undefined>(undefined);
  const [busy, setBusy] = useState<CommandName | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, [id]);

  useEffect(() => {
    let live = true;
    void readClaim(client, id, owner).then((c) => {
      if (live) setClaim(c);
    });
    return () => {
      live = false;
    };
  }, [client, id, dataVersion, owner]);

  /** Runs one claim command; true when it was queued (it syncs in the background; `done` is said). */
  async function run<N extends CommandName>(name: N, input: CommandInput<N>, done: string): Promise<boolean> {
    setBusy(name);
    try {
      const result = await client.run(name, input);
      if (!result.ok) {
        toastError(errorText(result.error));
        return false;
      }
      toastInfo(done);
      return true;
    } finally {
      setBusy(null);
    }
  }

  return { claim, busy, run, heading };
}
