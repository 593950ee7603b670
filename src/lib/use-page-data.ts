import { useAppState, useDataClient } from '../data-access/data-context.tsx';

/**
 * What a signed-in page reads first: the worker's client, the session (its user, and the
 * business's currency, USD when unknown) and the data version its reads follow (bumped when
 * the mirror changes).
 */
export function usePageData() {
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  return { client, session, user: session?.user ?? null, currency: session?.business.currency ?? 'USD', dataVersion };
}
