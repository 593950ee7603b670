import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { canIssueCards } from '../../../schema/roles.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import { usePageData } from '../../lib/use-page-data.ts';
import type { CardView } from '../../lib/cards.ts';
import type { Command } from '../../lib/commands.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { isPartial } from '../../lib/sync-status-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { cardActor } from './card-view.ts';
import { cardFormCommands, clearCardFormRequest, peekCardFormRequest, type CardForm } from './commands.ts';
import type { CardsSearch, CardsView } from './search-params.ts';

const routeApi = getRouteApi('/_app/cards');

const NOT_ISSUER = 'Only admins and managers issue cards. Request a card instead.';

/**
 * The cards page's state: the session's actor and reference data, the tab and open card in the
 * URL, the form asked for (here or by a command run from another page: issuing only for
 * issuers), the card being activated, and where focus returns when a drawer or dialog closes.
 */
export function useCardsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { client, user, currency, dataVersion } = usePageData();
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const partial = useAppState((s) => isPartial(s.status));
  const reference = useReferenceData(client, referenceVersion);
  const actor = useMemo(() => (user ? cardActor(user, reference.data.users) : null), [user, reference.data.users]);
  const issuer = user ? canIssueCards(user) : false;
  const view: CardsView = issuer ? (search.view ?? 'mine') : 'mine';
  // A command run from another page asked for a form: open it with the page (issuing only for issuers).
  const [requested] = useState(peekCardFormRequest);
  const [form, setForm] = useState<CardForm | null>(requested === 'issue' && !issuer ? null : requested);
  const [activating, setActivating] = useState<CardView | null>(null);
  const managedRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);

  const setSearch = useCallback(
    (patch: Partial<CardsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const openForm = useCallback(
    (next: CardForm) => {
      if (next === 'issue' && !issuer) return toastInfo(NOT_ISSUER);
      setForm(next);
    },
    [issuer],
  );
  useEffect(() => {
    clearCardFormRequest();
    if (requested === 'issue' && !issuer) toastInfo(NOT_ISSUER);
    // Once, as the page mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  usePageCommands(useMemo<Command[]>(() => cardFormCommands((f) => openForm(f)), [openForm]));

  const returnFocus = useCallback(
    () => managedRef.current?.querySelector<HTMLElement>('[role="grid"]') ?? headerRef.current?.querySelector<HTMLElement>('button'),
    [],
  );
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    returnFocus()?.focus();
  }, [setSearch, returnFocus]);
  const openCard = useCallback((id: string) => setSearch({ open: id }), [setSearch]);

  return {
    search, client, user, actor, issuer, view, currency, online, partial, reference, dataVersion, referenceVersion,
    form, setForm, openForm, activating, setActivating, managedRef, headerRef, setSearch, returnFocus, closeDrawer, openCard,
  };
}
