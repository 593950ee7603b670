import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { canIssueCards, isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { CardView } from '../../lib/cards.ts';
import type { Command } from '../../lib/commands.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { isPartial } from '../../lib/sync-status-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { ActivateDialog } from './card-dialogs.tsx';
import { CardDrawer } from './card-drawer.tsx';
import { cardActor } from './card-view.ts';
import { cardFormCommands, clearCardFormRequest, peekCardFormRequest, type CardForm } from './commands.ts';
import { IssueDialog } from './issue-dialog.tsx';
import { ManagedCards } from './managed-cards.tsx';
import { MyCards } from './my-cards.tsx';
import { RequestDialog } from './request-dialog.tsx';
import type { CardsSearch, CardsView } from './search-params.ts';
import { HeldChargesBanner } from '../../components/held-charges.tsx';

const routeApi = getRouteApi('/_app/cards');

const NOT_ISSUER = 'Only admins and managers issue cards. Request a card instead.';

/**
 * Issue 10: /cards. Everyone sees "My cards" (tiles, their requests, Request a card); admins
 * and managers also get the cards they manage ("All cards" / "Team cards": a grid with search,
 * filters, bulk Lock / Unlock and Issue card). A card opens in the detail drawer (`open`).
 * Every change is a command through the worker: shown at once, offline too, marked until the
 * server confirms it.
 */
export function CardsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const partial = useAppState((s) => isPartial(s.status));
  const reference = useReferenceData(client, referenceVersion);
  const user = session?.user ?? null;
  const currency = session?.business.currency ?? 'USD';
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

  if (!user || !actor) return null;
  const managedLabel = isAdmin(user) ? 'All cards' : 'Team cards';
  const mine = (
    <MyCards client={client} version={dataVersion} actor={actor} partial={partial} onOpen={openCard} onActivate={setActivating} onRequest={() => openForm('request')} />
  );
  return (
    <div className="cards-page">
      <div className="page-header" ref={headerRef}>
        <h1>Cards</h1>
        <span className="spacer" />
        <Button variant={issuer ? 'secondary' : 'primary'} onClick={() => openForm('request')}>
          Request a card
        </Button>
        {issuer && (
          <Button variant="primary" onClick={() => openForm('issue')}>
            Issue card
          </Button>
        )}
      </div>
      <HeldChargesBanner />
      {issuer ? (
        <Tabs
          label="Cards"
          tabs={[
            { key: 'mine', label: 'My cards', panel: mine },
            {
              key: 'managed',
              label: managedLabel,
              panel: (
                <ManagedCards
                  label={managedLabel}
                  client={client}
                  version={dataVersion + referenceVersion}
                  actor={actor}
                  reference={reference}
                  search={search}
                  setSearch={setSearch}
                  dialogOpen={form !== null || activating !== null}
                  gridRef={managedRef}
                />
              ),
            },
          ]}
          selected={view}
          onSelect={(next) => setSearch({ view: next === 'mine' ? undefined : next })}
        />
      ) : (
        mine
      )}
      {search.open && (
        <CardDrawer
          id={search.open}
          client={client}
          version={dataVersion}
          actor={actor}
          reference={reference}
          partial={partial}
          onOpenCard={openCard}
          onClose={closeDrawer}
          returnFocus={returnFocus}
        />
      )}
      {form === 'request' && <RequestDialog client={client} currency={currency} online={online} onClose={() => setForm(null)} returnFocus={returnFocus} />}
      {form === 'issue' && issuer && (
        <IssueDialog
          client={client}
          actor={actor}
          reference={reference}
          currency={currency}
          returnFocus={returnFocus}
          onClose={() => setForm(null)}
          onIssued={(id) => {
            setForm(null);
            setSearch({ open: id });
          }}
        />
      )}
      {activating && (
        <ActivateDialog
          card={activating}
          client={client}
          onClose={() => setActivating(null)}
          // Activated, the tile's Activate button is gone: focus goes to the tile's first action.
          returnFocus={() => document.querySelector<HTMLElement>(`[data-card-id="${activating.id}"] .card-tile-actions button`) ?? returnFocus()}
        />
      )}
    </div>
  );
}
