import { isAdmin } from '../../../schema/roles.ts';
import { Button } from '../../components/button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { ActivateDialog } from './card-dialogs.tsx';
import { CardDrawer } from './card-drawer.tsx';
import { IssueDialog } from './issue-dialog.tsx';
import { ManagedCards } from './managed-cards.tsx';
import { MyCards } from './my-cards.tsx';
import { RequestDialog } from './request-dialog.tsx';
import { HeldChargesBanner } from '../../components/held-charges.tsx';
import { useCardsPage } from './use-cards-page.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';
import { CardsHeaderLinks } from './primary-cards-export.tsx';

/**
 * Issue 10: /cards. Everyone sees "My cards" (tiles, their requests, Request a card); admins
 * and managers also get the cards they manage ("All cards" / "Team cards": a grid with search,
 * filters, bulk Lock / Unlock and Issue card). A card opens in the detail drawer (`open`).
 * Every change is a command through the worker: shown at once, offline too, marked until the
 * server confirms it.
 */
export function CardsPage() {
  const {
    search, client, user, actor, issuer, view, currency, online, partial, reference, dataVersion, referenceVersion,
    form, setForm, openForm, activating, setActivating, managedRef, headerRef, setSearch, returnFocus, closeDrawer, openCard,
  } = useCardsPage();

  if (!user || !actor) return null;
  const managedLabel = isAdmin(user) ? 'All cards' : 'Team cards';
  const mine = (
    <MyCards client={client} version={dataVersion} actor={actor} partial={partial} onOpen={openCard} onActivate={setActivating} onRequest={() => openForm('request')} />
  );
  return (
    <div className="cards-page">
      <div className="page-header" ref={headerRef}>
        <h1>Cards</h1>
        <SavedViewsBar list="cards" />
        <span className="spacer" />
        <CardsHeaderLinks client={client} admin={isAdmin(user)} online={online} departments={reference.options.departments} search={search} />
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
                  dataVersion={dataVersion}
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